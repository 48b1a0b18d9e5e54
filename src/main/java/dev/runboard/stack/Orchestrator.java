package dev.runboard.stack;

import dev.runboard.process.SessionEngine;
import dev.runboard.process.WaitingSessions;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Runs stacks (issue #17) inside the supervisor, so the rules hold with every window closed:
 * dependencies with their conditions, delays, group queues, readiness probes and restarts with
 * backoff. Every waiting run is a session of its own ({@code pending} or {@code queued}, with its
 * reason) made by {@link WaitingSessions}; one timer thread looks at every chain ten times a
 * second and moves what can move, so all decisions happen on one thread in one order (the queue
 * order is the order chains were made). Probes run on a pool of their own.
 */
public final class Orchestrator implements AutoCloseable {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(Orchestrator.class.getName());
    }
    static final Duration TICK = Duration.ofMillis(100);
    /** How long {@code down} waits for one session's end beyond its grace. */
    private static final Duration DOWN_SLACK = Duration.ofSeconds(15);

    private final SessionEngine engine;
    private final WaitingSessions waiting;
    private final Clock clock;
    private final List<Chain> chains = new ArrayList<>();
    /** {@code parallel} limits by group or queue name (from files' {@code groups:} and {@code runboard queue}). */
    private final Map<String, Integer> limits = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(daemon("runboard-stack"));
    private final ScheduledExecutorService probes = Executors.newScheduledThreadPool(2, daemon("runboard-probe"));

    public Orchestrator(SessionEngine engine) {
        this.engine = engine;
        this.waiting = engine.waiting();
        this.clock = engine.config().clock();
        timer.scheduleWithFixedDelay(this::tickSafely, TICK.toMillis(), TICK.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Starts the named commands of the workspace (commands or groups; none: every {@code autostart}
     * one) with everything they depend on. A command of this file that is still in a live chain is
     * not started twice. Returns the current session of each, dependencies first.
     */
    public List<Session> up(Workspace ws, List<String> names, Map<String, String> environment) {
        return up(ws, ws.file().toString(), names, environment, false);
    }

    /**
     * As {@link #up(Workspace, List, Map)} for a workspace read from {@code file} (its name may not be
     * runboard.yaml). A command of this file that runs, or that succeeded while the rest of its stack
     * still runs, is not started again, whoever started it (this supervisor or one before it: the
     * records say), unless {@code force}: then a finished one runs again (a running one never twice).
     */
    public synchronized List<Session> up(Workspace ws, String file, List<String> names, Map<String, String> environment,
                                         boolean force) {
        return up(ws, file, names, environment, force, false);
    }

    /**
     * As {@link #up(Workspace, String, List, Map, boolean)}; {@code noDeps}: only the named commands, none
     * of what they depend on (their dependencies on commands not started count as met). A {@code disabled}
     * command gets no session: those that depend on it end {@code skipped} ("db is disabled").
     */
    public synchronized List<Session> up(Workspace ws, String file, List<String> names, Map<String, String> environment,
                                         boolean force, boolean noDeps) {
        return up(ws, file, names, environment, force, noDeps, false);
    }

    /**
     * As {@link #up(Workspace, String, List, Map, boolean, boolean)}; {@code restartRunning} ({@code up
     * --force} from the CLI): a named command that runs is stopped by its kill (its shutdown step first)
     * and started again once that run has ended, never two at once.
     */
    public synchronized List<Session> up(Workspace ws, String file, List<String> names, Map<String, String> environment,
                                         boolean force, boolean noDeps, boolean restartRunning) {
        List<String> wanted = new ArrayList<>(noDeps ? StackSelection.named(ws, names) : StackSelection.withDependencies(ws, names));
        List<String> disabled = wanted.stream().filter(n -> ws.commands().get(n).turnedOff()).toList();
        wanted.removeAll(disabled);
        if (ws.resolved().groups() != null) {
            ws.resolved().groups().forEach((g, l) -> limits.put(g, l.parallel()));
        }
        Map<String, Chain> known = new java.util.HashMap<>();
        Map<String, Chain> replaced = new java.util.HashMap<>();
        for (String name : wanted) {
            Chain chain = live(file, name);
            // Forced: what was named (the window's ▶ on a finished command), never what it depends on.
            boolean named = names.contains(name) || names.stream().anyMatch(n -> ws.groups().getOrDefault(n, List.of())
                    .contains(name));
            if (chain == null) {
                chain = recorded(file, name, force && named, () -> StackCommand.of(ws, name, file), environment);
            }
            if (chain != null && restartRunning && named && chain.running()) {
                replaced.put(name, chain);
                chain = null;
            }
            if (chain == null) {
                checkCanStart(ws, name); // all of them before the first is created: a bad one starts none
            } else {
                known.put(name, chain);
            }
        }
        known.values().forEach(c -> {
            if (!chains.contains(c)) {
                chains.add(c);
            }
        });
        Map<String, Chain> byName = new java.util.HashMap<>();
        List<Session> sessions = new ArrayList<>();
        for (String name : wanted) {
            Chain chain = known.get(name);
            if (chain == null) {
                StackCommand command = StackCommand.of(ws, name, file);
                chain = new Chain(command, environment);
                for (Map.Entry<String, String> dep : command.dependsOn().entrySet()) {
                    chain.dependencies.put(dep.getKey(), disabled.contains(dep.getKey()) || ws.commands().get(dep.getKey()).turnedOff()
                            ? new Dependency.Disabled(dep.getKey()) : byName.get(dep.getKey()));
                }
                Chain old = replaced.get(name);
                if (old != null) {
                    old.stopped = true; // ended by this kill, never restarted: the new chain takes its place
                    if (!chains.contains(old)) {
                        chains.add(old);
                    }
                    chain.replaces = old.current;
                    engine.kill(old.current, Signal.TERM, old.current.spec().grace());
                }
                chain.current = waiting.create(command.spec(), command.link(), SessionStatus.PENDING, "starting");
                chains.add(chain);
            }
            byName.put(name, chain);
            sessions.add(chain.current);
        }
        tick();
        return sessions;
    }

    private static void checkCanStart(Workspace ws, String name) {
        try {
            ws.checkCanStart(name);
        } catch (WorkspaceException e) {
            throw new InvalidSpecException("workspace", e.withWholePath() + " (fix the file and try again)");
        }
    }

    /**
     * An ad-hoc session: in the queue {@code queue} (null: none), after the sessions of
     * {@code after} (id to condition; empty: none).
     */
    public synchronized Session startAdHoc(SessionSpec spec, String queue, Map<String, String> after,
                                           Map<String, String> environment) {
        Chain chain = new Chain(StackCommand.adHoc(spec, queue, after), environment);
        for (Map.Entry<String, String> a : after.entrySet()) {
            Session s = engine.find(a.getKey()).orElseThrow(() ->
                    new IllegalArgumentException("no session " + a.getKey() + " to start after (see runboard list)"));
            chain.dependencies.put(a.getKey(), new Dependency.OfSession(s));
        }
        chain.current = waiting.create(spec, chain.command.link(), queue == null ? SessionStatus.PENDING : SessionStatus.QUEUED,
                "starting");
        chains.add(chain);
        tick();
        return chain.current;
    }

    /** Sets the parallel limit of a queue or group (ad hoc; a file's {@code groups:} sets it again on {@code up}). */
    public synchronized void setParallel(String queue, int parallel) {
        if (parallel < 1) {
            throw new IllegalArgumentException("--parallel must be 1 or more");
        }
        limits.put(queue, parallel);
        tick();
    }

    public Map<String, Integer> limits() {
        return Map.copyOf(limits);
    }

    /** Ends a session that waits here as killed (a person's kill): never started, never restarted. */
    public synchronized boolean cancel(Session session, String reason) {
        for (Chain c : chains) {
            if (c.current == session) {
                c.stopped = true;
            }
        }
        return waiting.end(session, SessionStatus.KILLED, reason);
    }

    /**
     * Stops what {@code up} started from {@code file} (or the named commands and groups of it),
     * dependants first, each with its grace; a waiting one ends {@code killed} without running.
     * Returns the names stopped, in order. Nothing stopped here restarts.
     */
    public List<String> down(String file, List<String> names) throws InterruptedException {
        List<Chain> order;
        synchronized (this) {
            // What runs from this file that no chain here holds (a supervisor before this one started it): its records say.
            for (Session s : engine.sessions()) {
                if (s.stack() != null && file.equals(s.stack().file()) && s.stack().name() != null
                        && !s.status().isTerminal() && !s.status().isWaiting() && !chainHolding(s)) {
                    Chain c = new Chain(StackCommand.recorded(s), Map.of());
                    c.current = s;
                    c.everStarted = true;
                    chains.add(c);
                }
            }
            linkByName(file);
            // A chain an earlier down stopped is over once its session ended, but only the next tick says so: not listed again.
            List<Chain> targets = chains.stream().filter(c -> file.equals(c.command.file()) && !c.over
                    && !(c.stopped && c.current.status().isTerminal())
                    && (names.isEmpty() || names.contains(c.command.name()) || names.contains(c.group()))).toList();
            targets.forEach(c -> c.stopped = true);
            order = new ArrayList<>(targets);
            order.sort(java.util.Comparator.comparingInt(Orchestrator::depth).reversed());
        }
        List<String> stopped = new ArrayList<>();
        for (Chain c : order) {
            Session s;
            synchronized (this) {
                s = c.current;
                if (waiting.end(s, SessionStatus.KILLED, "stopped by down before it started")) {
                    c.over = true;
                    stopped.add(c.name());
                    continue;
                }
            }
            if (!s.status().isTerminal()) {
                java.util.concurrent.CompletableFuture<Object> ended = new java.util.concurrent.CompletableFuture<>();
                s.addListener(ended::complete);
                try {
                    engine.kill(s, Signal.TERM, s.spec().grace());
                    ended.get(s.spec().grace().plus(DOWN_SLACK).toMillis(), TimeUnit.MILLISECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    log().log(Level.WARNING, "down: " + c.name() + " did not end in time", e);
                }
            }
            stopped.add(c.name());
        }
        return stopped;
    }

    /** Gives chains taken from records their dependencies, by name within the file, so down stops dependants first. */
    private void linkByName(String file) {
        for (Chain c : chains) {
            if (!file.equals(c.command.file()) || !c.dependencies.isEmpty()) {
                continue;
            }
            for (String dep : c.command.dependsOn().keySet()) {
                for (Chain other : chains) {
                    if (other != c && file.equals(other.command.file()) && dep.equals(other.command.name()) && !other.over) {
                        c.dependencies.put(dep, other);
                    }
                }
            }
        }
    }

    /** How deep a chain sits in its dependencies (0: depends on nothing here): down stops the deepest first. */
    private static int depth(Chain c) {
        int d = 0;
        for (Dependency dep : c.dependencies.values()) {
            if (dep instanceof Chain parent) {
                d = Math.max(d, depth(parent) + 1);
            }
        }
        return d;
    }

    /** What {@code up} waits for: {@code --wait} (services) or {@code --until-ended} (batches). */
    public enum WaitFor {
        /** Each command ready (its probe passed) or, without a probe, ended or up for the settle time. */
        READY,
        /** Each command ended for good (no restart to come). */
        ENDED
    }

    /**
     * What a wait found: the latest run of each command waited for (a restart replaces the one {@code up}
     * made), those that failed, were skipped or never became ready (one line each; empty when all is well),
     * and whether the stack was stopped because one failed ({@code --abort-on-failure}).
     */
    public record Settled(List<Session> sessions, List<String> failed, boolean aborted) {
    }

    /** {@code up --settle}'s default: a command without a probe that stayed up this long counts as up. */
    public static final Duration DEFAULT_SETTLE = Duration.ofSeconds(1);

    /**
     * Blocks until each of these sessions' chains has settled as {@code what} says, or {@code limit} has
     * passed. A command without a probe is settled for {@link WaitFor#READY} once it ended or its current
     * run stayed up {@code settle} (measured from its recorded start): "running" alone said nothing of a
     * test suite that fails a second later. With {@code abortOnFailure} the first failure ends the wait
     * and stops the stack ({@code down}) before it returns.
     */
    public Settled await(List<Session> sessions, Duration limit, WaitFor what, Duration settle, boolean abortOnFailure)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (true) {
            List<String> failed = new ArrayList<>();
            List<Session> current = new ArrayList<>();
            java.util.Set<String> files = new java.util.LinkedHashSet<>();
            boolean settled = true;
            synchronized (this) {
                Instant now = clock.instant();
                for (Session s : sessions) {
                    Chain c = chainOf(s);
                    if (c == null) {
                        current.add(s);
                        continue;
                    }
                    current.add(c.current);
                    if (c.command.file() != null) {
                        files.add(c.command.file());
                    }
                    if (c.over) {
                        if (c.current.status() != SessionStatus.COMPLETED) {
                            failed.add(failure(c));
                        }
                    } else if (what == WaitFor.READY && c.readyTimedOut && !c.everReady) {
                        failed.add(c.name() + " not ready within "
                                + dev.runboard.session.Durations.format(c.command.ready().timeoutOrDefault()));
                    } else if (what == WaitFor.ENDED || !up(c, now, settle)) {
                        settled = false;
                    }
                }
            }
            boolean abort = abortOnFailure && !failed.isEmpty();
            if (abort) {
                for (String file : files) {
                    down(file, List.of());
                }
            }
            if (settled || abort || System.nanoTime() > deadline) {
                return new Settled(List.copyOf(current), List.copyOf(failed), abort);
            }
            Thread.sleep(TICK.toMillis()); // polls the orchestration's own state; the tick moves it
        }
    }

    /** Ready by its probe, or without one running for {@code settle} since its current run's start. */
    private static boolean up(Chain c, Instant now, Duration settle) {
        if (!c.running()) {
            return false;
        }
        if (c.command.ready() != null) {
            return c.everReady;
        }
        Instant started = c.current.startedAt();
        return started != null && Duration.between(started, now).compareTo(settle) >= 0;
    }

    /** "tests failed (exit 1)", "web skipped: dependency db will not be ready: …": one line for up's report. */
    private static String failure(Chain c) {
        String line = c.name() + " " + Chain.describeEnd(c.current);
        String reason = c.current.snapshot().reason();
        if (c.current.status() == SessionStatus.SKIPPED && reason != null) {
            line += ": " + reason;
        }
        return line;
    }

    /** The commands among those {@code up} would start that are {@code disabled} (they get no session). */
    public static List<String> disabledAmong(Workspace ws, List<String> names, boolean noDeps) {
        List<String> wanted = noDeps ? StackSelection.named(ws, names) : StackSelection.withDependencies(ws, names);
        return wanted.stream().filter(n -> ws.commands().get(n).turnedOff()).toList();
    }

    private Chain chainOf(Session s) {
        for (Chain c : chains) {
            if (c.current == s || s.id().equals(c.current.id())) {
                return c;
            }
        }
        // a restart replaced it: follow the chain by its link
        for (Chain c : chains) {
            if (c.current.stack() != null && s.stack() != null && c.command.name() != null
                    && c.command.name().equals(s.stack().name()) && c.command.file() != null
                    && c.command.file().equals(s.stack().file())) {
                return c;
            }
        }
        return null;
    }

    /** Whether the chain of this session is over (ended, no further run): for tests and {@code --wait}. */
    public synchronized boolean isOver(Session session) {
        Chain c = chainOf(session);
        return c != null && c.over;
    }

    /**
     * The chain of the latest run of this command of this file, whoever started it (a supervisor before
     * this one: its record names it): running, to be followed and stopped by {@code down}; or completed
     * while another command of its stack still runs, so {@code up} does not run it again (unless
     * {@code force}). Null when there is none, or it must run again.
     */
    private Chain recorded(String file, String name, boolean force, java.util.function.Supplier<StackCommand> command,
                           Map<String, String> environment) {
        Session latest = null;
        for (Session s : engine.sessions()) {
            if (s.stack() != null && file.equals(s.stack().file()) && name.equals(s.stack().name()) && !s.status().isWaiting()
                    && (latest == null || s.startedAt().isAfter(latest.startedAt()))) {
                latest = s;
            }
        }
        if (latest == null) {
            return null;
        }
        boolean running = !latest.status().isTerminal();
        boolean done = !force && latest.status() == SessionStatus.COMPLETED && stackRuns(file, latest);
        if (!running && !done) {
            return null;
        }
        for (Chain held : chains) {
            if (held.current == latest) {
                return held; // this orchestrator's own: what succeeded here counts as done too
            }
        }
        Chain c = new Chain(command.get(), environment);
        c.current = latest;
        c.everStarted = true;
        c.everReady = running ? !Boolean.FALSE.equals(latest.ready()) : true;
        c.succeeded = done;
        c.over = done;
        return c;
    }

    private boolean chainHolding(Session s) {
        for (Chain c : chains) {
            if (c.current == s) {
                return true;
            }
        }
        return false;
    }

    /** Whether a command of this file other than {@code except}'s runs now (its stack is up). */
    private boolean stackRuns(String file, Session except) {
        for (Session s : engine.sessions()) {
            if (s != except && s.stack() != null && file.equals(s.stack().file()) && !s.status().isTerminal()) {
                return true;
            }
        }
        return false;
    }

    private Chain live(String file, String name) {
        for (Chain c : chains) {
            if (!c.over && !c.stopped && file.equals(c.command.file()) && name.equals(c.command.name())) {
                return c;
            }
        }
        return null;
    }

    private void tickSafely() {
        try {
            synchronized (this) {
                tick();
            }
        } catch (RuntimeException e) {
            log().log(Level.WARNING, "stack orchestration step failed", e);
        }
    }

    /** One look at every chain, in the order they were made (which is the queues' order). */
    private void tick() {
        // An ad-hoc run that is over has nothing left to decide (what waits after it holds its session, not its chain).
        chains.removeIf(c -> c.over && c.command.name() == null);
        Instant now = clock.instant();
        Map<String, Integer> running = new java.util.HashMap<>();
        for (Chain c : chains) {
            if (c.running() && c.group() != null) {
                running.merge(c.group(), 1, Integer::sum);
            }
        }
        for (Chain c : chains) {
            if (c.over) {
                continue;
            }
            Session s = c.current;
            if (s.status().isWaiting()) {
                step(c, now, running);
            } else if (!s.status().isTerminal()) {
                if (c.readiness != null) {
                    c.everReady |= c.readiness.everReady();
                    c.readyTimedOut |= c.readiness.timedOut();
                }
            } else {
                ended(c, now);
            }
        }
    }

    /** A waiting session: dependencies, then delay or backoff, then its queue slot, then its start. */
    private void step(Chain c, Instant now, Map<String, Integer> running) {
        Session s = c.current;
        if (!waiting.holds(s)) {
            return; // made by another engine, or being launched
        }
        if (c.replaces != null && !c.replaces.status().isTerminal()) {
            waiting.update(s, SessionStatus.PENDING, "waiting for the run it replaces (" + c.replaces.id() + ") to end");
            return;
        }
        List<String> unmet = new ArrayList<>();
        for (Map.Entry<String, String> d : c.command.dependsOn().entrySet()) {
            Dependency dep = c.dependencies.get(d.getKey());
            if (dep == null || dep.met(d.getValue())) {
                continue;
            }
            if (dep.never(d.getValue())) {
                String why = dep instanceof Dependency.Disabled ? dep.why()
                        : "dependency " + dep.label() + " " + Chain.cannot(d.getValue()) + ": " + dep.why();
                waiting.end(s, SessionStatus.SKIPPED, why);
                c.over = true;
                c.lastEnd = "skipped";
                return;
            }
            unmet.add(dep.label() + ": " + d.getValue());
        }
        if (!unmet.isEmpty()) {
            waiting.update(s, SessionStatus.PENDING, "waiting for " + String.join(", ", unmet));
            return;
        }
        if (c.notBefore == null && c.command.delay() != null && !c.command.delay().isZero()) {
            c.notBefore = now.plus(c.command.delay());
        }
        if (c.notBefore != null && now.isBefore(c.notBefore)) {
            long secs = (Duration.between(now, c.notBefore).toMillis() + 999) / 1000;
            waiting.update(s, SessionStatus.PENDING, c.restarting ? restartReason(c, secs)
                    : "delay " + dev.runboard.session.Durations.format(c.command.delay()) + ": starts in " + secs + " s");
            return;
        }
        String group = c.group();
        int limit = group == null ? 0 : limits.getOrDefault(group, 0);
        int busy = group == null ? 0 : running.getOrDefault(group, 0);
        if (limit > 0 && busy >= limit) {
            waiting.update(s, SessionStatus.QUEUED, "queued in " + group + ": " + busy + " of " + limit + " running");
            return;
        }
        Session started = waiting.launch(s, c.environment);
        c.current = started;
        c.restarting = false;
        if (!started.status().isTerminal()) {
            c.everStarted = true;
            if (group != null) {
                running.merge(group, 1, Integer::sum);
            }
            if (c.command.ready() != null) {
                c.readiness = new Readiness(started, c.command.ready(), waiting, "always".equals(c.command.restart()),
                        at -> c.restartsAfterFailure(started, at), clock);
                c.readiness.start(probes);
            }
            if (c.command.liveness() != null) {
                c.liveness = new Liveness(started, c.command.liveness(), waiting, at -> c.restartsAfterFailure(started, at), clock);
                c.liveness.start(probes);
            }
        }
        if (c.command.logFile() != null && started.pid() != null) {
            waiting.linkOutput(started, c.command.logFile()); // (a run that already ended too: its output is whole)
        }
    }

    /** The current run ended: restart it by its policy and backoff, or the chain is over. */
    private void ended(Chain c, Instant now) {
        Session s = c.current;
        if (c.readiness != null) {
            c.readiness.stop();
            c.readiness.lastLook(); // a ready line printed just before the end counts
            c.everReady |= c.readiness.everReady();
            c.readiness = null;
        }
        if (c.liveness != null) {
            c.liveness.stop();
            c.liveness = null;
        }
        SessionStatus st = s.status();
        c.succeeded |= st == SessionStatus.COMPLETED;
        c.lastEnd = Chain.describeEnd(s);
        boolean failure = st == SessionStatus.FAILED || st == SessionStatus.TIMEOUT || st == SessionStatus.UNKNOWN;
        boolean restart = !c.stopped && s.pid() != null && switch (c.command.restart()) {
            case "always" -> st != SessionStatus.KILLED && st != SessionStatus.SKIPPED;
            case "on-failure" -> failure;
            default -> false;
        };
        if (!restart) {
            c.over = true;
            return;
        }
        Instant endedAt = s.outcome() == null ? now : s.outcome().endedAt();
        Instant startedAt = s.startedAt();
        if (startedAt != null && Duration.between(startedAt, endedAt).compareTo(c.command.backoff().resetAfterOrDefault()) >= 0) {
            c.restartsSinceReset = 0; // it stayed up long enough: the count starts again
        }
        int limit = c.command.backoff().limitOrDefault();
        if (c.restartsSinceReset >= limit) {
            c.over = true;
            if (limit > 0) {
                c.lastEnd += ", after " + limit + " restart" + (limit == 1 ? "" : "s");
            }
            return;
        }
        c.restartsSinceReset++;
        Duration wait = c.command.backoffBefore(c.restartsSinceReset);
        c.notBefore = endedAt.plus(wait);
        c.restarting = true;
        long secs = (wait.toMillis() + 999) / 1000;
        Session next = waiting.create(s.spec(), s.stack().restartOf(s.id()), SessionStatus.PENDING, restartReason(c, secs));
        c.current = next;
    }

    /** "restart 2 of 5 in 4 s", or "restart 7 in 4 s" with {@code limit: unlimited}. */
    private static String restartReason(Chain c, long secs) {
        dev.runboard.workspace.RestartBackoff b = c.command.backoff();
        return "restart " + c.restartsSinceReset + (b.unlimited() ? "" : " of " + b.limitOrDefault()) + " in " + secs + " s";
    }

    @Override
    public void close() {
        timer.shutdownNow();
        probes.shutdownNow();
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return r -> {
            Thread t = new Thread(r, name + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
