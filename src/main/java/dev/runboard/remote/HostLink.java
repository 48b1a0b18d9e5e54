package dev.runboard.remote;

import dev.runboard.process.TreeUsageFrames;
import dev.runboard.session.Session;
import dev.runboard.session.SessionEvent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Everything runboard does on one host, over one ssh connection: installs the helper, launches,
 * and follows all of the host's running sessions with one ssh call per poll (their sizes, exit
 * statuses and liveness, {@link PollFrames}). Their new output comes through each session's output
 * stream ({@link SessionStreams}), which ssh writes into the capture itself; for a session without
 * one (the connection down, or more sessions than channels), the poll brings it. A failed poll
 * marks the sessions {@code disconnected} and is retried with backoff; the next poll (and the
 * reopened stream) asks each session's output from the end of its local mirror, so nothing is lost
 * and nothing doubled. Sessions another target owns (Slurm jobs submitted on this host, {@link
 * LoginHost}) are mirrored the same way; their end is their owner's.
 */
final class HostLink implements AutoCloseable {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(HostLink.class.getName());
    }
    static final Duration PERIOD = Duration.ofMillis(200);
    /**
     * The poll's period while the streams bring the output (no session without one printed since the last
     * poll): a stream says when its command has ended (the poll then runs at once), so the poll is left with
     * liveness, the usage sampling, a status a stream missed and the first output of a session without a
     * stream. Each poll is an ssh channel and a perl start on the host.
     */
    static final Duration STREAMING_PERIOD = Duration.ofSeconds(1);
    /** How often a poll also samples the sessions' trees (the monitor reads resources once a second). */
    static final Duration USAGE_PERIOD = Duration.ofSeconds(1);
    private static final Duration BACKOFF_FIRST = Duration.ofMillis(250);
    private static final Duration BACKOFF_MAX = Duration.ofSeconds(10);

    private final SshCommand ssh;
    private final String clientId;
    private final Clock clock;
    private final Consumer<Session> changed;
    private final Map<String, Followed> followed = new ConcurrentHashMap<>();
    private final Map<String, Integer> gone = new ConcurrentHashMap<>();
    private final SessionStreams streams;
    /**
     * Whether the last poll brought output of a session without a stream, or could open none: the poll's short
     * period then (it is the output's only way here); otherwise the streams bring it, and the poll is left with
     * the news at its long one.
     */
    private volatile boolean pollCarries = true;
    private final Object wake = new Object();
    /** A wake-up not yet taken by a pause (guarded by {@code wake}). */
    private boolean woken;
    private volatile String dir;
    private volatile TreeUsageFrames usage;
    private long usageAskedAt;
    private volatile boolean closed;
    /** The output stream lost its connection since the last poll: the next good poll says the link was made again. */
    private volatile boolean dropped;
    /** Where each session's output stood as the connection came back: the byte it continues from (poller thread). */
    private final Map<String, Long> resumeFrom = new java.util.HashMap<>();
    private Thread poller;

    HostLink(SshCommand ssh, String clientId, Clock clock, Consumer<Session> changed) {
        this.ssh = ssh;
        this.clientId = clientId;
        this.clock = clock;
        this.changed = changed;
        this.streams = new SessionStreams(ssh, () -> dropped = true, this::wakeUp);
    }

    String host() {
        return ssh.host();
    }

    SshCommand ssh() {
        return ssh;
    }

    /** The helper's folder on the host, installing it first if needed; one-line InvalidSpecException when the host cannot. */
    synchronized String dir() throws IOException {
        if (dir == null) {
            dir = RemoteInstall.ensure(ssh, clientId);
        }
        return dir;
    }

    /**
     * Makes sure a session can start on the host: the helper there (installed if needed) and room on
     * its disk. The first time, a current helper answers both in one ssh call.
     */
    void prepare() throws IOException {
        String room = null;
        synchronized (this) {
            if (dir == null) {
                RemoteInstall.Checked checked = RemoteInstall.ensure(ssh, clientId, true);
                dir = checked.dir();
                room = checked.room();
            }
        }
        if (room == null) {
            RemoteInstall.answer(ssh, ssh.run(helper("room"), null));
        } else if (room.startsWith("error ")) {
            throw new dev.runboard.session.InvalidSpecException("host", SshProblem.ofHelper(ssh.host(), room));
        } else if (!room.equals("ok")) {
            throw new dev.runboard.session.InvalidSpecException("host", "host " + ssh.host()
                    + ": the remote helper's room check answered \"" + room + "\"");
        }
    }

    /** The helper's command line for one request. */
    String helper(String... words) throws IOException {
        String d = dir();
        StringBuilder sb = new StringBuilder("perl ").append(SshCommand.quote(d + "/" + RemoteInstall.HELPER))
                .append(' ').append(SshCommand.quote(d));
        for (String w : words) {
            sb.append(' ').append(SshCommand.quote(w));
        }
        return sb.toString();
    }

    /**
     * Starts following a session whose wrapper is {@code pid} (started at {@code startTicks}) on the
     * host; its mirror continues from the local capture's end.
     */
    RemoteProcess follow(Session session, Path exitStatusFile, long pid, long startTicks) throws IOException {
        RemoteProcess process = new RemoteProcess(pid, data -> stdin(session.id(), data));
        track(session, process, exitStatusFile, pid, startTicks);
        return process;
    }

    /**
     * Mirrors a session whose command another target follows and ends (a Slurm job submitted on this host, its
     * folder the helper's {@code s/ID}): its output into the local capture, as a session of this host's is, and,
     * once the status is there and every byte here, the status into {@code exitStatusFile}. No pid here says
     * whether it lives, and nothing here ends it or tidies its folder: its owner does ({@link #unmirror}).
     */
    void mirror(Session session, Path exitStatusFile) throws IOException {
        track(session, null, exitStatusFile, 0, 0);
    }

    /** Follows the session from its mirror's end, by the stream and the poll (its process null: {@link Followed#ownedElsewhere}). */
    private void track(Session session, RemoteProcess process, Path exitStatusFile, long pid, long startTicks) throws IOException {
        Mirror mirror = new Mirror(session.captureFile());
        followed.put(session.id(), new Followed(session, process, mirror, exitStatusFile, pid, startTicks));
        session.connection(Session.CONNECTED); // its stream opens at the poll this wakes
        startPoller();
        wakeUp();
    }

    /** Whether the session's output (and status) is still being mirrored: false once it is all here, or given up. */
    boolean mirrors(String sessionId) {
        return followed.containsKey(sessionId);
    }

    /** Stops mirroring a session {@link #mirror}ed here and removes its folder from the host. */
    void unmirror(String sessionId) {
        Followed f = followed.remove(sessionId);
        if (f != null) {
            streams.stop(sessionId);
            f.mirror().close();
        }
        forget(List.of(sessionId));
    }

    /** Whether no session of this host is followed (a refused start then leaves no master connection behind). */
    boolean idle() {
        return followed.isEmpty();
    }

    /** Whether an output stream of this host is open now. */
    boolean streaming() {
        return streams.anyOpen();
    }

    private synchronized void startPoller() {
        if (poller == null) {
            poller = new Thread(this::pollLoop, "runboard-ssh-" + ssh.host());
            poller.setDaemon(true);
            poller.start();
        }
    }

    private void pollLoop() {
        Duration backoff = BACKOFF_FIRST;
        while (!closed) {
            boolean more = false;
            resumeFrom.clear();
            for (Followed f : followed.values()) {
                resumeFrom.put(f.session().id(), f.mirror().size());
            }
            try {
                more = pollOnce();
                backoff = BACKOFF_FIRST;
                followed.values().forEach(f -> back(f, false));
                dropped = false;
            } catch (IOException | RuntimeException e) {
                followed.values().forEach(Followed::looked);
                markAll(Session.DISCONNECTED, e.getMessage());
                dropped = false; // the reconnection's event says it came back
                log().log(Level.FINE, "poll of " + ssh.host() + " failed", e);
                pause(backoff);
                backoff = backoff.multipliedBy(2).compareTo(BACKOFF_MAX) > 0 ? BACKOFF_MAX : backoff.multipliedBy(2);
                continue;
            }
            if (!more) {
                pause(pollCarries ? PERIOD : STREAMING_PERIOD);
            }
        }
    }

    /** One poll of every followed session; true when some output is still to fetch (poll again at once). */
    boolean pollOnce() throws IOException {
        if (followed.isEmpty()) {
            return false;
        }
        List<Followed> batch = new ArrayList<>(followed.values());
        StringBuilder request = new StringBuilder();
        Map<String, Long> leaders = new java.util.HashMap<>();
        java.util.Set<String> streamed = new java.util.HashSet<>();
        streams.newPoll();
        for (Followed f : batch) {
            // Opened here, on the poller's thread, before the poll is asked: a session's bytes come from its stream
            // or from this poll, never both. With its stream open the poll asks for none (an offset past any
            // file's end), only the news.
            boolean streaming = !f.mirror().closed() && streams.ensureOpen(f, (id, offset) -> helper("follow", id, Long.toString(offset)));
            if (streaming) {
                streamed.add(f.session().id());
            }
            long from = f.mirror().startPoll();
            request.append(f.session().id()).append(' ').append(streaming ? Long.MAX_VALUE : from).append(' ')
                    .append(f.pid()).append(' ').append(f.startTicks()).append(' ').append(f.ownedElsewhere() ? "" : f.session().tag())
                    .append('\n');
            leaders.put(f.session().id(), f.pid());
        }
        PollFrames frames = new PollFrames(followed, gone, streamed);
        boolean sample = System.nanoTime() - usageAskedAt >= USAGE_PERIOD.toNanos();
        List<String> words = new ArrayList<>(List.of("poll", Long.toString(PollFrames.MAX_BYTES_PER_POLL)));
        if (sample) {
            usage(); // its clock is asked once, before the first poll that samples
            usageAskedAt = System.nanoTime();
            words.add("usage");
        }
        SshCommand.Result r = ssh.connected(ssh.run(helper(words.toArray(String[]::new)),
                request.toString().getBytes(StandardCharsets.UTF_8), frames::read));
        if (r.exit() != 0) {
            throw new IOException("host " + ssh.host() + ": the poll failed (exit " + r.exit() + "): " + r.err());
        }
        if (frames.usage() != null) {
            usage.read(frames.usage(), leaders);
        }
        List<String> done = new ArrayList<>();
        for (PollFrames.Ended e : frames.ended()) {
            Followed f = followed.remove(e.id());
            if (f != null) {
                back(f, true); // the link came back after the command had ended: said before its end is
                streams.stop(e.id());
                f.finish(e.status(), e.lostWhy() == null ? null : "exit status lost on " + ssh.host() + ": " + e.lostWhy());
                if (!f.ownedElsewhere()) {
                    done.add(e.id()); // the folder of one owned elsewhere is its owner's to tidy
                }
            }
        }
        // After the ended ones' finish (their stand-ins have exited); one whose last bytes are still on the way
        // is looked at again by the next poll, so a re-attach waiting for its first look sees it end.
        batch.stream().filter(f -> !frames.ending().contains(f.session().id())).forEach(Followed::looked);
        if (!done.isEmpty()) {
            forget(done);
        }
        pollCarries = streamed.isEmpty() || frames.carried();
        // Only a session without a stream can have more to fetch: its stream's bytes were not asked for.
        return frames.more();
    }

    /** The host's sampler, made with its clock ticks and page size (asked once; Linux's usual 100 and 4096 if it cannot say). */
    private TreeUsageFrames usage() throws IOException {
        if (usage == null) {
            long ticks = 100;
            long page = 4096;
            SshCommand.Result r = ssh.connected(ssh.run(helper("sysconf"), null));
            String[] w = r.text().strip().split(" ");
            if (w.length == 3 && w[0].equals("ok")) {
                ticks = Long.parseLong(w[1]);
                page = Long.parseLong(w[2]);
            }
            usage = new TreeUsageFrames(ticks, page);
        }
        return usage;
    }

    /** A followed session's CPU, memory and tree on the host at the last sampling poll; null before the first. */
    dev.runboard.process.ResourceSampler.Usage usage(String sessionId) {
        TreeUsageFrames u = usage;
        return u == null || !followed.containsKey(sessionId) ? null : u.of(sessionId);
    }

    /** Sends bytes to the session's command on the host (its fifo), or ends its input ({@code data} null). */
    private void stdin(String id, byte[] data) throws IOException {
        SshCommand.Result r = ssh.run(helper(data == null ? "stdin_close" : "stdin", id), data == null ? new byte[0] : data);
        if (r.sshFailed()) {
            throw new IOException(SshProblem.ofSsh(ssh.host(), r.err()) + "; the input was not sent");
        }
        String answer = r.text().strip();
        if (!answer.startsWith("ok")) {
            throw new IOException("host " + ssh.host() + ": " + (answer.startsWith("error ")
                    ? answer.substring(answer.indexOf(':') + 1).strip() : "the input was not sent (exit " + r.exit() + ")"));
        }
    }

    private void forget(List<String> ids) {
        try {
            List<String> words = new ArrayList<>(List.of("forget"));
            words.addAll(ids);
            ssh.run(helper(words.toArray(String[]::new)), null);
        } catch (IOException | RuntimeException e) {
            log().log(Level.FINE, "could not tidy finished sessions on " + ssh.host(), e);
        }
    }

    /** A poll failed: every followed session reads disconnected, with one event each (not one per retry). */
    private void markAll(String connection, String why) {
        for (Followed f : followed.values()) {
            Session s = f.session();
            if (s.connection(connection)) {
                s.recordEvent(new SessionEvent(clock.instant(), SessionEvent.CONNECTION, "lost the connection to "
                        + ssh.host() + " (" + why + "); retrying"));
                changed.accept(s);
            }
        }
    }

    /**
     * A poll went through: a session that read disconnected is connected again, and one whose link
     * dropped and was made again between two polls (the stream saw it) gets an event too; each says
     * from which byte its output continues and how much had waited on the host meanwhile.
     */
    private void back(Followed f, boolean ended) {
        Session s = f.session();
        boolean wasOut = Session.DISCONNECTED.equals(s.connection());
        boolean changedNow = s.connection(Session.CONNECTED);
        if (!wasOut && !dropped) {
            if (changedNow) {
                changed.accept(s);
            }
            return;
        }
        long from = resumeFrom.getOrDefault(s.id(), f.mirror().size());
        long held = f.hostSize() - from;
        String message = (wasOut ? "connected to " + ssh.host() + " again"
                : "the connection to " + ssh.host() + " dropped and was made again at once")
                + (ended ? "; the command had ended meanwhile" : "") + "; output continues from byte " + from
                + (held > 0 ? " (" + held + " bytes had waited on the host)" : "");
        s.recordEvent(new SessionEvent(clock.instant(), SessionEvent.CONNECTION, message));
        changed.accept(s);
    }

    /** Polls at once: a wake-up that comes while a poll runs is kept for the pause after it. */
    private void wakeUp() {
        synchronized (wake) {
            woken = true;
            wake.notifyAll();
        }
    }

    private void pause(Duration d) {
        synchronized (wake) {
            try {
                if (!woken) {
                    wake.wait(Math.max(1, d.toMillis()));
                }
                woken = false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closed = true;
            }
        }
    }

    /** Stops polling; the remote commands keep running (the next runboard re-attaches them). */
    @Override
    public void close() {
        closed = true;
        wakeUp();
        streams.close();
        followed.values().forEach(f -> f.mirror().close());
    }
}
