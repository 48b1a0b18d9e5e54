package dev.runboard.engine;

import dev.runboard.process.SupervisorLink;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.store.SpecRecord;
import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A client of a data dir's supervisor: each call is one request on its own connection, its reply read back
 * into the record the supervisor answered with (each request's {@code Reply}). When no
 * supervisor answers, the first call starts one (a detached JVM in its own session, so it outlives
 * this process and the terminal) and waits for its socket.
 */
public final class SupervisorClient implements SupervisorLink {
    private final SupervisorPaths paths;
    /** The environment a command this client starts begins from: its user's (RawText values). */
    private final Map<String, String> environment;

    public SupervisorClient(SupervisorPaths paths) {
        this(paths, null);
    }

    private SupervisorClient(SupervisorPaths paths, Map<String, String> environment) {
        this.paths = paths;
        this.environment = environment;
    }

    public static SupervisorClient forDataDir(java.nio.file.Path dataDir) {
        return new SupervisorClient(SupervisorPaths.of(dataDir));
    }

    /** A client for someone whose environment is {@code environment} (the supervisor running a thin client's command). */
    public static SupervisorClient forDataDir(java.nio.file.Path dataDir, Map<String, String> environment) {
        return new SupervisorClient(SupervisorPaths.of(dataDir), environment);
    }

    private Map<String, String> environment() {
        return environment != null ? environment : RawProcess.environment();
    }

    public SupervisorPaths paths() {
        return paths;
    }

    /** A failed request: {@code usage} when the request was wrong (an unknown id), not the supervisor. */
    public static class RequestException extends IOException {
        private final boolean usage;

        RequestException(String message, boolean usage) {
            super(message);
            this.usage = usage;
        }

        public boolean usage() {
            return usage;
        }
    }

    /** The supervisor speaks another protocol version (another runboard's on the same data dir). */
    public static final class VersionMismatch extends RequestException {
        VersionMismatch(String message) {
            super(message, false);
        }
    }

    @Override
    public String start(SessionSpec spec) throws InvalidSpecException, IOException {
        StartRequest req = new StartRequest(SpecRecord.of(spec), environment(), null, null);
        try {
            return call(req).id();
        } catch (RequestException e) {
            if (e.usage()) {
                throw new InvalidSpecException("spec", e.getMessage());
            }
            throw e;
        }
    }

    /** Starts a session in a queue and/or after others ({@code start --queue}, {@code --after}); its id. */
    public String start(SessionSpec spec, String queue, List<String> after) throws InvalidSpecException, IOException {
        StartRequest req = new StartRequest(SpecRecord.of(spec), environment(), queue, after);
        try {
            return call(req).id();
        } catch (RequestException e) {
            if (e.usage()) {
                throw new InvalidSpecException("spec", e.getMessage());
            }
            throw e;
        }
    }

    @Override
    public List<String> up(java.nio.file.Path file, List<String> names, boolean force) throws IOException {
        return upReply(file, names, false, force).sessions().stream().map(UpRequest.Run::id).toList();
    }

    @Override
    public List<String> down(java.nio.file.Path file, List<String> names) throws IOException {
        return downNames(file, names);
    }

    /**
     * {@code runboard up}: the reply's {@code sessions} (name, id, status) and, when waiting, {@code failed}.
     * {@code force}: a named command that already ended runs again (never a second copy of a running one).
     */
    public UpRequest.Reply upReply(java.nio.file.Path file, List<String> names, boolean await, boolean force) throws IOException {
        return upReply(file, names, new UpOptions(await, false, null, force, false, false, false));
    }

    /**
     * How {@code up} starts and what it waits for: {@code await} ({@code --wait}: every command ready, or
     * without a probe ended or up {@code settle}; null: the supervisor's default), {@code untilEnded}
     * (every command ended), {@code force} (a named command that succeeded runs again), {@code noDeps} (only
     * the named commands), {@code abortOnFailure} (stop the stack when one fails), {@code restartRunning} (a
     * named command that runs is stopped and started again: the CLI's {@code --force}).
     */
    public record UpOptions(boolean await, boolean untilEnded, Duration settle, boolean force, boolean noDeps,
                            boolean abortOnFailure, boolean restartRunning) {
    }

    /** {@code runboard up} with every option. */
    public UpRequest.Reply upReply(java.nio.file.Path file, List<String> names, UpOptions options) throws IOException {
        return call(new UpRequest(file.toAbsolutePath().toString(), names, options.await(), options.untilEnded(),
                options.settle() == null ? null : options.settle().toMillis(), options.force(), options.noDeps(),
                options.abortOnFailure(), options.restartRunning(), environment()));
    }

    /** {@code runboard down}: the names stopped, dependants first. */
    public List<String> downNames(java.nio.file.Path file, List<String> names) throws IOException {
        return call(new DownRequest(file.toAbsolutePath().toString(), names)).stopped();
    }

    /** {@code runboard queue NAME --parallel N}. */
    public void queue(String name, int parallel) throws IOException {
        call(new QueueRequest(name, parallel));
    }

    @Override
    public KillReport kill(String id, Signal signal, Duration grace) throws IOException {
        KillRequest req = new KillRequest(id, signal.name(), grace == null ? null : grace.toMillis());
        return call(req).report();
    }

    @Override
    public boolean signal(String id, Signal signal) throws IOException {
        return call(new SignalRequest(id, signal.name())).sent();
    }

    @Override
    public List<Long> signalProcess(String id, long pid, Signal signal, boolean subtree) throws IOException {
        return call(new SignalProcessRequest(id, pid, signal.name(), subtree)).pids();
    }

    @Override
    public void stdin(String id, byte[] data) throws IOException {
        call(new StdinRequest(id, Base64.getEncoder().encodeToString(data)));
    }

    @Override
    public void closeStdin(String id) throws IOException {
        call(new CloseStdinRequest(id));
    }

    @Override
    public long remove(String id, boolean withArtifact) throws IOException {
        return call(new RemoveRequest(id, withArtifact)).bytes();
    }

    /** The snapshots of every session, oldest first (a running one's output read live). */
    public List<ShownSnapshot> list() throws IOException {
        return list(false);
    }

    /** Every session's snapshot; {@code reveal}: secret environment values as given, not masked. */
    public List<ShownSnapshot> list(boolean reveal) throws IOException {
        return callReading(new ListRequest(reveal ? Boolean.TRUE : null)).sessions();
    }

    /**
     * The lines of {@code runboard list}, oldest first, as the supervisor renders them ({@link ListRows}).
     * With no supervisor up, those the last one left in its index while they are still current
     * ({@link ListIndex#readIfCurrent}): a look at a quiet data dir starts no supervisor.
     */
    public List<ListRows.Row> listRows() throws IOException {
        SocketChannel open;
        try {
            open = connect();
        } catch (IOException e) {
            if (!SupervisorSocket.nobodyListens(e)) {
                throw e;
            }
            java.util.Optional<List<ListRows.Row>> indexed = ListIndex.readIfCurrent(paths.dataDir());
            if (indexed.isPresent()) {
                return indexed.get();
            }
            open = null;
        }
        ListRowsRequest request = new ListRowsRequest();
        return SupervisorSocket.exchangeReading(paths, open, ch -> exchange(ch, request)).listed();
    }

    /** One session's snapshot (the id or a unique prefix of it). */
    public ShownSnapshot show(String idOrPrefix) throws IOException {
        return show(idOrPrefix, false);
    }

    /** One session's snapshot; {@code reveal}: secret environment values as given, not masked. */
    public ShownSnapshot show(String idOrPrefix, boolean reveal) throws IOException {
        return callReading(new ShowRequest(idOrPrefix, reveal ? Boolean.TRUE : null)).snapshot();
    }

    /** The id this prefix names (the whole id, or the only one starting with it). */
    public String resolve(String idOrPrefix) throws IOException {
        return callReading(new ResolveRequest(idOrPrefix)).id();
    }

    /** Blocks until the session has ended and its record is final; its final snapshot. */
    public ShownSnapshot await(String id) throws IOException {
        return callReading(new WaitRequest(id)).snapshot();
    }

    /** exec's end of a session: its exit code, and its final snapshot as exec prints it (JSON, no newline). */
    public record ExecEnd(int exit, byte[] snapshot) {
    }

    /** Blocks until the session has ended and its record is final: exec's exit code and output for it ({@code exec_exited}). */
    public ExecEnd execEnded(String id) throws IOException {
        ExecExitedRequest.Reply reply = callReading(new ExecExitedRequest(id));
        return new ExecEnd(reply.exit(), java.util.HexFormat.of().parseHex(reply.snapshotHex()));
    }

    /** The running supervisor's facts, or null when none runs (never starts one). */
    public Supervisor.Status statusIfRunning() throws IOException {
        try (SocketChannel ch = connect()) {
            return exchange(ch, new StatusRequest()).supervisor();
        } catch (IOException e) {
            if (SupervisorSocket.nobodyListens(e)) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Asks a running supervisor to exit (sessions keep running); false when none ran. One of another
     * version that does not serve {@code stop} across versions (older ones) is sent SIGTERM instead,
     * once /proc shows it is the process listening on this socket ({@link SocketListener}).
     */
    public boolean stop() throws IOException {
        long pid;
        try (SocketChannel ch = connect()) {
            pid = ReplyReader.supervisorPid(paths);
            pid = pid > 0 && SocketListener.listens(pid, paths.socket()) ? pid : 0;
            exchange(ch, new StopRequest());
        } catch (VersionMismatch other) {
            SocketListener.terminate(paths);
            return true;
        } catch (IOException e) {
            if (SupervisorSocket.nobodyListens(e)) {
                return false;
            }
            throw e;
        }
        // Its answer comes first; then it waits for its connections (this one closed above), writes the list index
        // and lets go of the data dir.
        if (pid > 0) {
            SocketListener.awaitExit(pid);
        }
        return true;
    }

    /**
     * The live usage of these running sessions as the supervisor last sampled it; empty when no
     * supervisor runs (this never starts one: it is asked every second by a window's monitor).
     */
    @Override
    public java.util.Map<String, dev.runboard.process.ResourceSampler.Usage> usage(List<String> ids) {
        UsageRequest req = new UsageRequest(ids);
        java.util.Map<String, dev.runboard.process.ResourceSampler.Usage> out = new java.util.HashMap<>();
        try (SocketChannel ch = connect()) {
            exchange(ch, req).usage().forEach((id, sampled) -> out.put(id, sampled.usage().toSampled(id, sampled.leaderPid())));
        } catch (IOException e) {
            return java.util.Map.of(); // no supervisor, or one without this request: nothing to show
        }
        return out;
    }

    @Override
    public void ensureRunning() throws IOException {
        call(new StatusRequest());
    }

    /** Sends a request, starting a supervisor first when none answers. */
    <R extends Protocol.Reply> R call(Request<R> request) throws IOException {
        try (SocketChannel ch = SupervisorSocket.connectOrStart(paths)) {
            return exchange(ch, request);
        }
    }

    /** A request that only reads or waits: asked again of the next supervisor if the one asked dies first ({@link SupervisorSocket#exchangeReading}). */
    <R extends Protocol.Reply> R callReading(Request<R> request) throws IOException {
        return SupervisorSocket.exchangeReading(paths, null, ch -> exchange(ch, request));
    }

    private <R extends Protocol.Reply> R exchange(SocketChannel ch, Request<R> request) throws IOException {
        Requests.send(Protocol.writer(ch), request);
        // Not held to Protocol.MAX_LINE: it comes from this user's own supervisor, and list --json of a long
        // history is larger (10,000 sessions: 8.5 MB).
        String reply = new ReplyReader(ch, paths).next();
        if (reply == null) {
            throw new IOException("the supervisor closed the connection without answering (see " + paths.log() + ")");
        }
        Protocol.Envelope envelope = Protocol.envelope(reply);
        if (envelope.version() != Protocol.VERSION) {
            throw new VersionMismatch(Protocol.mismatch(envelope.version(), "supervisor"));
        }
        Class<R> type = Requests.replyType(request);
        Protocol.Reply read = Protocol.decode(reply, envelope.ok(), type);
        if (read instanceof Protocol.Refusal refused) {
            throw new RequestException(refused.error() == null ? "the supervisor refused the request" : refused.error(),
                    refused.usage());
        }
        return type.cast(read);
    }

    private SocketChannel connect() throws IOException {
        return SupervisorSocket.connect(paths);
    }
}
