package dev.runboard.engine;

import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.AtomicFiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * {@code list.index} in the data dir: the lines of {@code runboard list}, one per session, that the
 * supervisor (the one writer) leaves when it exits, so that a {@code list} with no supervisor up
 * answers without a JVM that parses every record (10,000 of them in a heavy user's history).
 *
 * <p>The file is {@code runboard-list-index 2 STAMP COUNT}, then COUNT lines {@code STATUS<TAB>LINE}.
 * STAMP is the modification time of {@code sessions/} read before the lines were made: a session
 * created ({@code exec} writes its own records) or removed (retention, {@code rm}) since changes it.
 * A record changes only while its session runs, so the index answers only when its stamp is still
 * that of {@code sessions/} and every session in it has ended (other than as {@code unknown});
 * anything else asks a supervisor.
 *
 * <p>The supervisor also keeps the ended sessions' lines between requests: they never change, so a
 * {@code list} of a long history renders only the running ones again.
 */
public final class ListIndex {
    static final String FILE = "list.index";
    /** 2 since EXIT fits a signal's name, 3 since lines have a HOST: an index of lines made before is stale, not misaligned. */
    private static final String MAGIC = "runboard-list-index 3";

    private final Path dataDir;
    private final Map<String, ListRows.Row> ended = new ConcurrentHashMap<>();

    public ListIndex(Path dataDir) {
        this.dataDir = dataDir;
    }

    /** The lines of these sessions, in their order; an ended session's line is made once. */
    public List<ListRows.Row> rows(List<Session> sessions) {
        List<ListRows.Row> rows = new ArrayList<>(sessions.size());
        for (Session s : sessions) {
            ListRows.Row cached = ended.get(s.id());
            if (cached == null) {
                // Without the live output: the line shows none, and a running session's capture is not read.
                var snapshot = s.snapshot(false);
                cached = ListRows.row(snapshot);
                if (settled(snapshot.status())) {
                    ended.put(s.id(), cached);
                }
            }
            rows.add(cached);
        }
        if (ended.size() > sessions.size() * 2 + 64) {
            // Sessions removed (retention, rm) leave their lines behind: drop those no longer listed.
            java.util.Set<String> ids = new java.util.HashSet<>();
            sessions.forEach(s -> ids.add(s.id()));
            ended.keySet().retainAll(ids);
        }
        return rows;
    }

    /** Writes the index of these sessions (atomically, 0600). */
    public void write(List<Session> sessions) throws IOException {
        long stamp = stamp(); // before the lines: a session made meanwhile leaves the index stale, never wrong
        List<ListRows.Row> rows = rows(sessions);
        StringBuilder b = new StringBuilder(64 + rows.size() * 120);
        b.append(MAGIC).append(' ').append(stamp).append(' ').append(rows.size()).append('\n');
        for (ListRows.Row r : rows) {
            b.append(r.status()).append('\t').append(r.line()).append('\n');
        }
        AtomicFiles.SYSTEM.write(dataDir.resolve(FILE), b.toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The lines of a data dir with no supervisor up, when its index still tells the truth: the
     * stamp unchanged and every session ended. Empty when there is no index, it is stale or
     * unreadable; the caller then asks a supervisor.
     */
    public static Optional<List<ListRows.Row>> readIfCurrent(Path dataDir) {
        try {
            String text = new String(Files.readAllBytes(dataDir.resolve(FILE)), StandardCharsets.UTF_8);
            int end = text.indexOf('\n');
            String[] head = end < 0 ? new String[0] : text.substring(0, end).split(" ");
            if (head.length != 4 || !(head[0] + " " + head[1]).equals(MAGIC)
                    || Long.parseLong(head[2]) != new ListIndex(dataDir).stamp()) {
                return Optional.empty();
            }
            int count = Integer.parseInt(head[3]);
            List<ListRows.Row> rows = new ArrayList<>(count);
            // Split on \n only: a command's line may hold a \r, which readLine() would take for an end.
            for (int from = end + 1; from < text.length(); ) {
                int next = text.indexOf('\n', from);
                int tab = text.indexOf('\t', from);
                if (next < 0 || tab < 0 || tab > next) {
                    return Optional.empty(); // cut short
                }
                String status = text.substring(from, tab);
                if (!settled(SessionStatus.fromWord(status))) {
                    return Optional.empty(); // it may have changed since: its owner or a new supervisor knows
                }
                rows.add(new ListRows.Row(status, text.substring(tab + 1, next)));
                from = next + 1;
            }
            return rows.size() == count ? Optional.of(rows) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // no index yet, or not one this runboard reads: the supervisor answers
        }
    }

    /**
     * Whether a session's line can no longer change: it ended, and not as {@code unknown}, which a
     * remote host's supervisor may still turn into the real end once it is reached again.
     */
    private static boolean settled(SessionStatus status) {
        return status.isTerminal() && status != SessionStatus.UNKNOWN;
    }

    /** The modification time of {@code sessions/} in nanoseconds; 0 when there is none yet. */
    private long stamp() throws IOException {
        try {
            return Files.getLastModifiedTime(dataDir.resolve("sessions")).to(TimeUnit.NANOSECONDS);
        } catch (NoSuchFileException e) {
            return 0;
        }
    }
}
