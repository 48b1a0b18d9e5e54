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
    private final SessionFinisher finisher;
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
        this.finisher = new SessionFinisher(config.artifacts(), config.clock());
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
            process = launcher.launch(spec, session.tag(), capture);
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
        session.requestEnd(why);
        String reason = why == SessionStatus.TIMEOUT
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

    /** The running session's stdin, a pipe kept open for input; null once it has ended. */
    public OutputStream stdin(Session session) {
        Running r = running.get(session.id());
        return r == null ? null : r.process().getOutputStream();
    }

    private void onExit(Session session, int exitCode) {
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
