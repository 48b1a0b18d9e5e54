package dev.runboard.store;

import dev.runboard.session.SessionId;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Why an id that names no listed session still names something on disk: a record set aside as
 * corrupt, one written by a newer runboard, one that cannot be read, or output without a record.
 * Loading says so once, in the supervisor's log; a person who then asks for that session by id
 * must hear it too, with what to do, rather than "no session" while its output sits in the data dir.
 * Only asked on that error path, so listing a folder or two is cheap enough.
 */
public final class MissingSession {
    private final SessionStore store;

    public MissingSession(SessionStore store) {
        this.store = store;
    }

    /**
     * "No session ID in DIR", and when something of it is on disk what that is and what to do; the
     * supervisor's answer and the CLI's own lookup both say it this way.
     */
    public static String noSession(Path dataDir, String id) {
        return "no session " + id + " in " + dataDir + new MissingSession(new SessionStore(dataDir)).explain(id)
                .map(why -> ": " + why).orElse(" (see runboard list)");
    }

    /**
     * A note for {@code list} while records are set aside in {@code corrupt/}: their sessions are
     * missing from the list, and only the supervisor's log said why. Empty when there are none.
     */
    public static Optional<String> setAsideNote(Path dataDir) {
        Path corrupt = dataDir.resolve("corrupt");
        long count;
        try (java.util.stream.Stream<Path> files = Files.list(corrupt)) {
            count = files.filter(p -> p.getFileName().toString().endsWith("-" + SessionStore.RECORD)).count();
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // none set aside (no folder), or none that can be counted
        }
        if (count == 0) {
            return Optional.empty();
        }
        return Optional.of((count == 1 ? "1 session is" : count + " sessions are") + " not listed: "
                + (count == 1 ? "its record was" : "their records were") + " not valid and set aside in " + corrupt
                + " ('runboard show ID' says where the output is); delete them there once looked at");
    }

    /** What the data dir holds for the session this id (or id prefix) names, when that is one session; empty otherwise. */
    public Optional<String> explain(String idOrPrefix) {
        if (idOrPrefix == null || idOrPrefix.isEmpty()) {
            return Optional.empty();
        }
        List<String> folders = sessionFolders(idOrPrefix);
        List<Path> setAside = setAside(idOrPrefix);
        if (folders.size() == 1) {
            return explainFolder(folders.get(0), setAside);
        }
        if (folders.isEmpty() && !setAside.isEmpty()) {
            return Optional.of("the record of session " + idOf(setAside.get(0)) + " was not valid and was moved to "
                    + setAside.get(0) + " (its output is gone with its folder)");
        }
        return Optional.empty();
    }

    private Optional<String> explainFolder(String id, List<Path> setAside) {
        Path record = store.file(id, SessionStore.RECORD);
        Path capture = store.file(id, SessionStore.CAPTURE);
        String output = Files.isRegularFile(capture) ? "; its output is kept at " + capture : "";
        if (Files.isDirectory(record)) {
            return Optional.of("the record of session " + id + " (" + record + ") is a folder, not a file, so the"
                    + " session cannot be listed" + output + "; remove " + store.dirOf(id) + " once that is not needed");
        }
        if (Files.exists(record)) {
            try {
                store.load(id);
                return Optional.empty(); // readable: it was listed, or has been since
            } catch (NewerRecordException e) {
                String why = e.getMessage().startsWith("it ") ? e.getMessage().substring(3) : e.getMessage(); // "it was written by…"
                return Optional.of("the record of session " + id + " " + why + "; use that runboard,"
                        + " or upgrade this one, to see it" + output);
            } catch (IOException | RuntimeException e) {
                return Optional.of("the record of session " + id + " cannot be read (" + e.getMessage() + ")" + output);
            }
        }
        if (!setAside.isEmpty()) {
            return Optional.of("the record of session " + id + " was not valid and was moved to " + setAside.get(0)
                    + output);
        }
        return output.isEmpty() ? Optional.empty()
                : Optional.of("session " + id + " has output but no record" + output);
    }

    private List<String> sessionFolders(String prefix) {
        List<String> ids = new ArrayList<>();
        // A filter, not a glob: what was typed is text, and a '*' or '[' in it must not match more.
        try (DirectoryStream<Path> all = Files.newDirectoryStream(store.sessionsDir(),
                p -> p.getFileName().toString().startsWith(prefix))) {
            for (Path p : all) {
                String name = p.getFileName().toString();
                if (SessionId.isValid(name) && Files.isDirectory(p)) {
                    ids.add(name);
                }
            }
        } catch (IOException | RuntimeException e) {
            // no sessions folder, or a prefix no glob can hold: nothing to explain
        }
        return ids;
    }

    /** Records moved to corrupt/ whose session id starts with the prefix (see SessionStore's moveAside). */
    private List<Path> setAside(String prefix) {
        List<Path> found = new ArrayList<>();
        try (DirectoryStream<Path> all = Files.newDirectoryStream(store.dataDir().resolve("corrupt"), p -> {
            String name = p.getFileName().toString();
            return name.startsWith(prefix) && name.endsWith("-" + SessionStore.RECORD);
        })) {
            all.forEach(found::add);
        } catch (IOException | RuntimeException e) {
            // nothing set aside
        }
        found.sort(null);
        return found;
    }

    private static String idOf(Path setAside) {
        String name = setAside.getFileName().toString();
        return name.length() >= 22 ? name.substring(0, 22) : name;
    }
}
