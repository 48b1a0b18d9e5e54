package dev.runboard.process;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Launches sessions and sees them to their end: the child writes straight into its capture file
 * (no pipe through the JVM), exit is detected by {@code Process.onExit()}, deadlines are enforced
 * here, and a kill ends the whole tree. Headless: the CLI and the window both drive this.
 */
public final class SessionEngine implements AutoCloseable {
    private final EngineConfig config;
    private final ProcessTreeKiller killer;
    private final SessionLauncher launcher;
    private final PtyLauncher ptyLauncher;
    private final SessionFinisher finisher;
    private final SessionMonitor monitor;
    private final ExecutorService workers = Executors.newCachedThreadPool(daemonThreads("runboard-worker"));
    private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor(daemonThreads("runboard-deadline"));
    private final Map<String, Running> running = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<KillReport>> kills = new ConcurrentHashMap<>();
    private final List<Session> sessions = new CopyOnWriteArrayList<>();
    private final List<Consumer<Session>> startListeners = new CopyOnWriteArrayList<>();

    /** A live child and what belongs to it until it ends. */
    private record Running(Process process, CaptureTail tail, ScheduledFuture<?> deadline) {
    }

    public SessionEngine(EngineConfig config) {
        this.config = config;
        this.killer = new ProcessTreeKiller(config.os(), config.clock());
        this.launcher = new SessionLauncher(config.os());
        this.ptyLauncher = new PtyLauncher(config.os());
        this.finisher = new SessionFinisher(config.artifacts(), config.clock());
        this.monitor = new SessionMonitor(config.clock(), (s, why, reason) -> end(s, Signal.TERM, s.spec().grace(), why, reason),
                SessionMonitor.DEFAULT_PERIOD);
    }

    public static SessionEngine forDataDir(Path dataDir) {
        return new SessionEngine(EngineConfig.forDataDir(dataDir));
    }

    public EngineConfig config() {
        return config;
    }

    public OsProcesses os() {
        return config.os();
    }

    /** Every session this engine started, oldest first. */
    public List<Session> sessions() {
        return List.copyOf(sessions);
    }

    /** Told (on the starting thread) about each session this engine starts. */
    public void onStart(Consumer<Session> listener) {
        startListeners.add(listener);
    }

    /**
     * Validates and starts a session. An invalid spec throws before anything runs; a spec that
     * passes but cannot be started (the OS refused) returns a session already {@code failed} with the reason.
     */
    public Session start(SessionSpec spec) throws InvalidSpecException {
        spec.validate();
        String id = SessionIds.next(config.clock());
        Path capture;
        try {
            Path dir = DataDirs.createPrivateDirectories(config.sessionsDir().resolve(id));
            capture = Files.createFile(dir.resolve("capture.log"));
        } catch (IOException e) {
            throw new InvalidSpecException("data", "cannot create the capture file under " + config.sessionsDir()
                    + ": " + e.getMessage() + ". Check that the data dir is writable and the disk is not full.");
        }
        Session session = new Session(id, spec, capture, config.clock());
        sessions.add(session);
        Process process;
        try {
            process = spec.pty() ? ptyLauncher.launch(spec, session.tag(), capture) : launcher.launch(spec, session.tag(), capture);
        } catch (IOException e) {
            session.finish(finisher.couldNotStart(session, e));
            startListeners.forEach(l -> l.accept(session));
            return session;
        }
        CaptureTail tail = new CaptureTail(capture, spec.previewBytes());
        session.started(process.pid(), config.clock().instant(), tail);
        ScheduledFuture<?> deadline = spec.timeout() == null ? null : deadlines.schedule(
                () -> end(session, Signal.TERM, spec.grace(), SessionStatus.TIMEOUT),
                spec.timeout().toMillis(), TimeUnit.MILLISECONDS);
        running.put(id, new Running(process, tail, deadline));
        process.onExit().thenAcceptAsync(p -> onExit(session, p.exitValue()), workers);
        monitor.watch(session);
        startListeners.forEach(l -> l.accept(session));
        return session;
    }

    /** Kills the session's whole tree: {@code signal} once, then SIGKILL after {@code grace}, then a sweep by tag. */
    public CompletableFuture<KillReport> kill(Session session, Signal signal, Duration grace) {
        return end(session, signal, grace, SessionStatus.KILLED);
    }

    /** Kills every running session (CLI shutdown, tests); waits for each kill to finish. */
    public void killAll(Duration grace) {
        List<CompletableFuture<KillReport>> all = new ArrayList<>();
        for (Session s : sessions) {
            if (!s.status().isTerminal()) {
                all.add(kill(s, Signal.TERM, grace));
            }
        }
        all.forEach(f -> f.handle((r, e) -> r).join());
    }

    private CompletableFuture<KillReport> end(Session session, Signal signal, Duration grace, SessionStatus why) {
        return end(session, signal, grace, why, null);
    }

    /** Ends the tree; {@code because} (an output rule, the watchdog, a guard) becomes the kill report's and the outcome's reason. */
    private CompletableFuture<KillReport> end(Session session, Signal signal, Duration grace, SessionStatus why,
                                              String because) {
        Long pid = session.pid();
        if (pid == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("session " + session.id() + " never started"));
        }
        CompletableFuture<KillReport> fresh = new CompletableFuture<>();
        CompletableFuture<KillReport> inFlight = kills.putIfAbsent(session.id(), fresh);
        if (inFlight != null) {
            if (signal == Signal.KILL) {
                config.os().signalGroup(pid, Signal.KILL); // "kill now" during another kill's grace
            }
            return inFlight;
        }
        session.requestEnd(why, because);
        String reason = because != null ? because : why == SessionStatus.TIMEOUT
                ? "timeout after " + SessionFinisher.seconds(session.spec().timeout())
                : "killed on request";
        workers.execute(() -> {
            try {
                KillReport report = killer.kill(new ProcessTreeKiller.Target(pid, session.tag()), signal, grace, reason);
                session.recordKill(report);
                fresh.complete(report);
            } catch (RuntimeException | Error e) {
                fresh.completeExceptionally(e);
            } finally {
                kills.remove(session.id(), fresh);
            }
        });
        return fresh;
    }

    /** Sends one signal to the session's process group without ending it (pause, resume, reload). */
    public boolean signal(Session session, Signal signal) {
        Long pid = session.pid();
        return pid != null && !session.status().isTerminal() && config.os().signalGroup(pid, signal);
    }

    /**
     * Sends a signal to one process of the session, or to it and everything below it in the
     * session's tree. Refuses pids that are not the session's (from a fresh pass over /proc).
     * Returns the pids signalled.
     */
    public java.util.List<Long> signalProcess(Session session, long pid, Signal signal, boolean subtree) {
        if (session.pid() == null || session.status().isTerminal()) {
            return java.util.List.of();
        }
        ProcessTreeSnapshot tree = new ResourceSampler("RUNBOARD_SESSION")
                .sample(java.util.List.of(new ResourceSampler.Target(session.id(), session.pid())))
                .bySession().get(session.id()).tree();
        if (!tree.pids().contains(pid)) {
            throw new IllegalArgumentException("pid " + pid + " is not a process of session " + session.id());
        }
        java.util.List<Long> targets = subtree ? tree.subtree(pid) : java.util.List.of(pid);
        // Parents first for STOP/TERM/KILL, so a parent cannot fork a replacement for a child just ended.
        java.util.List<Long> done = new java.util.ArrayList<>();
        for (long p : targets) {
            if (config.os().signal(p, signal)) {
                done.add(p);
            }
        }
        return done;
    }

    /**
     * CPU, memory, process tree and watchdog findings for a session, from the monitor's last pass
     * (once a second while it runs); kept after the end. Null for a session this engine never watched.
     */
    public SessionInsight insight(Session session) {
        return monitor.insight(session.id());
    }

    /** The last pass of the resource sampler shared by all sessions, or null before the first. */
    public ResourceSampler.Pass lastSamplerPass() {
        return monitor.lastPass();
    }

    /** The running session's stdin, a pipe kept open for input; null once it has ended. */
    public OutputStream stdin(Session session) {
        Running r = running.get(session.id());
        return r == null ? null : r.process().getOutputStream();
    }

    private void onExit(Session session, int exitCode) {
        try {
            monitor.exited(session); // a FAIL rule matching the last lines still fails the session
        } catch (RuntimeException e) {
            java.util.logging.Logger.getLogger(SessionEngine.class.getName()).log(java.util.logging.Level.WARNING,
                    "last monitor pass failed for " + session.id(), e);
        }
        CompletableFuture<KillReport> kill = kills.get(session.id());
        if (session.requestedEnd() != null && kill != null) {
            // The final snapshot carries the kill report, so wait for the sweep to finish.
            kill.handle((r, e) -> null).thenRunAsync(() -> finish(session, exitCode), workers);
        } else {
            finish(session, exitCode);
        }
    }

    private void finish(Session session, int exitCode) {
        Running r = running.remove(session.id());
        if (r != null) {
            r.tail().close();
            if (r.deadline() != null) {
                r.deadline().cancel(false);
            }
            closeQuietly(r.process().getOutputStream());
        }
        SessionOutcome outcome;
        try {
            outcome = finisher.exited(session, exitCode);
        } catch (RuntimeException e) {
            // Never leave a session "running" forever because finishing it failed: say so instead.
            outcome = finisher.internalError(session, exitCode, e);
        }
        session.finish(outcome);
    }

    private static void closeQuietly(OutputStream out) {
        try {
            out.close();
        } catch (IOException ignored) {
            // the child is gone; a broken stdin pipe is expected
        }
    }

    public Collection<Session> runningSessions() {
        return sessions.stream().filter(s -> !s.status().isTerminal()).toList();
    }

    /** Stops the engine's own threads. Running commands are left running: they outlive the window by design. */
    @Override
    public void close() {
        monitor.close();
        deadlines.shutdownNow();
        workers.shutdown();
    }

    private static ThreadFactory daemonThreads(String name) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
