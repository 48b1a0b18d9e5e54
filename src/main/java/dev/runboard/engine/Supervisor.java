package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.runboard.process.EngineConfig;
import dev.runboard.process.SessionEngine;
import dev.runboard.store.SettingsStore;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import dev.runboard.session.SessionSpec;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The one process that owns a data dir's sessions (pueue's daemon, tmux's server): unique by a
 * lock on {@code supervisor.lock}, it launches, watches, kills, records and prunes sessions, adopts
 * those whose owner died when it starts, and serves clients on a Unix socket (0600, in a 0700
 * folder, peers of another uid refused). Sessions do not need it to keep running: their wrappers
 * record exit statuses and hold deadlines, and the next supervisor re-adopts them. It exits when
 * idle: nothing of its own running and no client connected for {@link #idleLimit()}.
 */
public final class Supervisor {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(Supervisor.class.getName());
    }
    /** How often the supervisor looks at the data dir for sessions started by {@code exec} (to adopt them if it dies). */
    private static final Duration STORE_PERIOD = Duration.ofMillis(500);
    private static final Duration DEFAULT_IDLE = Duration.ofSeconds(60);

    private final SupervisorPaths paths;
    private final Function<List<String>, SessionSpec> startArguments;
    private final ClientCommands cli;
    private final Instant startedAt = Instant.now();
    private final AtomicInteger connections = new AtomicInteger();
    private final ExecutorService clients = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "runboard-client");
        t.setDaemon(true);
        return t;
    });
    private final ScheduledExecutorService idleCheck = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "runboard-idle");
        t.setDaemon(true);
        return t;
    });
    /** Signs of life on the connections whose request lasts ({@code wait}): clients tell it from a hung supervisor. */
    final Heartbeats heartbeats = new Heartbeats();
    private volatile long lastActivity = System.nanoTime();
    private volatile ServerSocketChannel server;
    private volatile boolean stopping;

    /**
     * @param startArguments parses exec's options and command into a spec (the CLI's own parser), for
     *     bin/runboard's exec client; throws {@link dev.runboard.session.InvalidSpecException} on a usage error
     * @param cli runs a command line with the CLI's own code, for bin/runboard's thin client
     */
    public Supervisor(SupervisorPaths paths, Function<List<String>, SessionSpec> startArguments, ClientCommands cli) {
        this.paths = paths;
        this.startArguments = startArguments;
        this.cli = cli;
    }

    /**
     * Serves until stopped or idle. Returns 0 also when another supervisor already holds the data
     * dir: the client that started this one simply connects to that one.
     */
    public int run() throws IOException {
        paths.prepare();
        try (FileChannel lockFile = dev.runboard.store.DataDirs.openPrivate(paths.lock())) {
            FileLock lock = lockFile.tryLock();
            if (lock == null) {
                System.err.println("runboard supervisor: another supervisor owns " + paths.dataDir());
                return 0;
            }
            SettingsStore settings = new SettingsStore(paths.dataDir());
            settings.loadOrCreate().warning().ifPresent(w -> System.err.println(Instant.now() + " warning: " + w));
            EngineConfig config = EngineConfig.forDataDir(paths.dataDir());
            try (SessionEngine engine = new SessionEngine(config)) {
                // Read at each prune (a small file): config set or the Preferences window apply at once.
                engine.retentionFrom(() -> EngineConfig.Retention.of(settings.load().settings()));
                engine.defaultMaxOutputFrom(() -> settings.load().settings().defaultMaxOutput());
                engine.secretsFrom(() -> settings.load().settings().secrets()); // as each session is made
                engine.onWarning(w -> System.err.println(Instant.now() + " warning: " + w));
                engine.prepareLaunches(); // the wrapper's install, now rather than on a client's first start
                try {
                    ClientScripts.install(paths.dataDir()); // bin/runboard's thin client, of this supervisor's version
                } catch (IOException e) { // a full disk: the supervisor still serves (lists, kills); bin/runboard uses its JVM
                    System.err.println(Instant.now() + " warning: could not write the thin client's scripts: " + e.getMessage());
                }
                // Before the history: running remote sessions are followed on their hosts again.
                dev.runboard.remote.SshSessions ssh = null;
                try {
                    ssh = dev.runboard.remote.SshSessions.forDataDir(paths.dataDir());
                    engine.useRemote(ssh);
                } catch (IOException e) {
                    System.err.println(Instant.now() + " warning: sessions on other hosts are off: " + e.getMessage());
                }
                // Its pending and running jobs, again; a login host's through the same ssh layer as the ssh sessions.
                engine.useSlurm(new dev.runboard.slurm.SlurmSessions(paths.dataDir(), ssh));
                engine.loadHistory(true);
                engine.watchStore(STORE_PERIOD);
                ListIndex listIndex = new ListIndex(paths.dataDir());
                try (dev.runboard.stack.Orchestrator stack = new dev.runboard.stack.Orchestrator(engine)) {
                    serve(engine, new SupervisorRequests(engine, this, startArguments, cli, stack, listIndex));
                }
                writeListIndex(listIndex, engine);
            } finally {
                Files.deleteIfExists(paths.address());
                Files.deleteIfExists(paths.socket());
                lock.release();
            }
        }
        return 0;
    }

    private void serve(SessionEngine engine, SupervisorRequests requests) throws IOException {
        Files.deleteIfExists(paths.socket()); // a dead supervisor's socket: the lock says it is gone
        server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(paths.socket()));
        setPrivate(paths.socket());
        writeAddress();
        System.err.println(Instant.now() + " runboard supervisor " + ProcessHandle.current().pid() + " serving "
                + paths.dataDir() + " on " + paths.socket());
        Duration idle = idleLimit();
        long idleCheckMs = Math.max(100, Math.min(1000, idle.toMillis() / 4));
        idleCheck.scheduleWithFixedDelay(() -> stopIfIdle(engine, idle), idleCheckMs, idleCheckMs, TimeUnit.MILLISECONDS);
        while (!stopping) {
            SocketChannel ch;
            try {
                ch = server.accept();
            } catch (java.nio.channels.ClosedChannelException closed) {
                break;
            } catch (IOException refused) {
                // Out of descriptors (EMFILE, ENFILE) with clients holding connections open: the supervisor lives
                // on, the connection waits in the socket's backlog, and it is taken once one closes.
                if (!stopping) {
                    warnOnce("cannot take a client's connection now (" + refused.getMessage() + "); retrying");
                    java.util.concurrent.locks.LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
                }
                continue;
            }
            lastActivity = System.nanoTime();
            connections.incrementAndGet();
            clients.execute(() -> {
                try (SocketChannel open = ch) {
                    if (PeerCheck.sameUser(open)) {
                        requests.serve(open);
                    } else {
                        Protocol.send(Protocol.writer(open), new Protocol.Refusal("refused: the supervisor serves only its own user", false));
                    }
                } catch (java.nio.channels.ClosedByInterruptException e) {
                    // Nothing here interrupts a client's thread: one that is has cut a connection with replies owed.
                    warnAbout("a client's connection was cut by an interrupt", e);
                } catch (IOException e) {
                    log().log(Level.FINE, "client connection ended", e); // the client left, or sent what the protocol refuses
                } catch (RuntimeException | Error e) {
                    warnAbout("a client's connection ended on a failure", e);
                } finally {
                    connections.decrementAndGet();
                    lastActivity = System.nanoTime();
                }
            });
        }
        idleCheck.shutdownNow();
        clients.shutdown();
        try {
            // Let the replies in flight (the stop request's own) go out; a client waiting on a session is cut off.
            clients.awaitTermination(2, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        heartbeats.close();
    }

    /** A connection that ended unexpectedly, in the log with where (its client sees only the connection end). */
    private static void warnAbout(String what, Throwable e) {
        StringBuilder where = new StringBuilder();
        StackTraceElement[] frames = e.getStackTrace();
        for (int i = 0; i < Math.min(8, frames.length); i++) {
            where.append("\n\tat ").append(frames[i]);
        }
        System.err.println(Instant.now() + " warning: " + what + ": " + e + where);
    }

    private volatile long lastAcceptWarning;

    /** A warning in the log at most once a minute (a flood of refused accepts would fill it). */
    private void warnOnce(String message) {
        long now = System.nanoTime();
        if (now - lastAcceptWarning > Duration.ofMinutes(1).toNanos()) {
            lastAcceptWarning = now;
            System.err.println(Instant.now() + " warning: " + message);
        }
    }

    /**
     * Leaves the lines of {@code runboard list} for the clients that come while no supervisor runs
     * ({@link ListIndex}); a failure costs only speed: they then bring a supervisor up as before.
     */
    private static void writeListIndex(ListIndex listIndex, SessionEngine engine) {
        try {
            listIndex.write(engine.sessions());
        } catch (IOException | RuntimeException e) {
            System.err.println(Instant.now() + " warning: could not write " + ListIndex.FILE + ": " + e.getMessage());
        }
    }

    /** Ends serving; running sessions keep running (their wrappers record how they end). */
    void stop() {
        stopping = true;
        try {
            ServerSocketChannel s = server;
            if (s != null) {
                s.close();
            }
        } catch (IOException ignored) {
            // closing is all that is wanted
        }
    }

    private void stopIfIdle(SessionEngine engine, Duration idle) {
        boolean owning = engine.sessions().stream().anyMatch(s -> !s.status().isTerminal()
                && (engine.managesHere(s) || engine.waiting().holds(s)));
        if (owning || connections.get() > 0) {
            lastActivity = System.nanoTime();
            return;
        }
        if (System.nanoTime() - lastActivity > idle.toNanos()) {
            System.err.println(Instant.now() + " idle for " + idle.toSeconds() + " s with nothing running: exiting");
            stop();
        }
    }

    /** Facts for {@code runboard supervisor status}. */
    public record Status(@JsonProperty("pid") long pid, @JsonProperty("data_dir") String dataDir,
                  @JsonProperty("socket") String socket, @JsonProperty("started_at") Instant startedAt,
                  @JsonProperty("protocol_version") int protocolVersion, @JsonProperty("running") int running,
                  @JsonProperty("sessions") int sessions, @JsonProperty("clients") int clients) {
    }

    Status status(SessionEngine engine) {
        int running = (int) engine.sessions().stream().filter(s -> !s.status().isTerminal()).count();
        return new Status(ProcessHandle.current().pid(), paths.dataDir().toString(), paths.socket().toString(), startedAt,
                Protocol.VERSION, running, engine.sessions().size(), connections.get());
    }

    /** {@code RUNBOARD_SUPERVISOR_IDLE} (a duration such as {@code 30s}, or seconds) overrides the default. */
    static Duration idleLimit() {
        return Optional.ofNullable(System.getenv("RUNBOARD_SUPERVISOR_IDLE")).filter(v -> !v.isBlank())
                .map(Supervisor::parseIdle).orElse(DEFAULT_IDLE);
    }

    private static Duration parseIdle(String text) {
        try {
            return dev.runboard.session.Durations.parse(text);
        } catch (RuntimeException e) {
            return DEFAULT_IDLE;
        }
    }

    /** The socket's path for bin/runboard's exec client, written aside and moved in place: never read half written. */
    /**
     * The address file names the socket and this supervisor's pid: a client whose supervisor stops
     * answering names the pid in what it says (ReplyReader), and a supervisor of another version is
     * stopped by it (SocketListener). Neither needs it to be served, so a disk too full for it (41
     * bytes, a page of a tmpfs) is a warning: {@code runboard list} still works on a full disk.
     */
    private void writeAddress() {
        java.nio.file.Path aside = paths.address().resolveSibling(paths.address().getFileName() + "." + ProcessHandle.current().pid());
        try {
            Files.writeString(aside, paths.socket() + "\n" + ProcessHandle.current().pid() + "\n");
            setPrivate(aside);
            Files.move(aside, paths.address(), java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            System.err.println(Instant.now() + " warning: could not write " + paths.address() + " (" + e.getMessage()
                    + "): clients reach this supervisor but cannot name its pid");
            try {
                Files.deleteIfExists(aside);
            } catch (IOException ignored) {
                // as full a disk as before: nothing was written to remove
            }
        }
    }

    private static void setPrivate(java.nio.file.Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    }
}
