package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Watches running sessions once per period on one thread: one {@link ResourceSampler} pass for all
 * of them, then per session the output rules (new output only), the hang watchdog and the runaway
 * guards (each session's {@link WatchedSession}). What it learns is published as an immutable
 * {@link SessionInsight} per session, kept after the end so the charts show the whole life. Ends
 * sessions through the engine's {@link Ender}.
 */
final class SessionMonitor implements AutoCloseable {
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(SessionMonitor.class.getName());
    }
    static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);

    /** How the monitor ends a session (the engine's tree kill with a status and a reason). */
    interface Ender {
        void end(Session session, SessionStatus why, String reason);
    }

    private final ResourceSampler sampler;
    private final Clock clock;
    private final Ender ender;
    private final Duration period;
    private final Map<String, WatchedSession> watched = new ConcurrentHashMap<>();
    private final Map<String, SessionInsight> insights = new ConcurrentHashMap<>();
    private final AtomicLong eventSeq = new AtomicLong();
    /** The monitor's clock, period, event numbering and ender, as each watched session sees them. */
    private final WatchedSession.Monitor asSeenByASession = new WatchedSession.Monitor() {
        @Override
        public Instant now() {
            return clock.instant();
        }

        @Override
        public Duration period() {
            return period;
        }

        @Override
        public boolean isWatching(Session session) {
            return watched.containsKey(session.id());
        }

        @Override
        public SessionInsight.Event event(Session session, SessionInsight.Kind kind, String message, String rule) {
            SessionInsight.Event e = new SessionInsight.Event(eventSeq.incrementAndGet(), clock.instant(), kind, message, rule);
            eventSink.accept(session, e);
            return e;
        }

        @Override
        public void end(Session session, SessionStatus why, String reason) {
            ender.end(session, why, reason);
        }
    };
    private final ScheduledExecutorService timer;
    private final java.util.function.ToLongFunction<Session> groupOf;
    private ScheduledFuture<?> ticking;
    private volatile ResourceSampler.Pass lastPass;
    /** Where a remote session's usage comes from (its host's poll); none by default. */
    private volatile Function<Session, ResourceSampler.Usage> remoteUsage = s -> null;
    /** Told of each event as it is found (the owner keeps them with the session); none by default. */
    private volatile BiConsumer<Session, SessionInsight.Event> eventSink = (s, e) -> { };

    SessionMonitor(Clock clock, Ender ender, Duration period) {
        this(clock, ender, period, Session::pid);
    }

    /** @param groupOf the session's command's process group (below its wrapper), asked once per session */
    SessionMonitor(Clock clock, Ender ender, Duration period, java.util.function.ToLongFunction<Session> groupOf) {
        this.groupOf = groupOf;
        this.sampler = new ResourceSampler(Session.TAG_VARIABLE);
        this.clock = clock;
        this.ender = ender;
        this.period = period;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "runboard-monitor");
            t.setDaemon(true);
            return t;
        });
    }

    /** Where events go besides the insight (the owner records them with the session). */
    void onEvent(BiConsumer<Session, SessionInsight.Event> sink) {
        this.eventSink = sink;
    }

    /** Remote sessions' resources come from {@code source} (their processes are in their host's /proc). */
    void sampleRemoteWith(Function<Session, ResourceSampler.Usage> source) {
        this.remoteUsage = source;
    }

    /** Starts watching a session that has started; the timer runs while anything is watched. */
    synchronized void watch(Session session) {
        if (session.pid() == null) {
            return;
        }
        watched.put(session.id(), new WatchedSession(asSeenByASession, session, clock.instant()));
        insights.put(session.id(), SessionInsight.empty(session.id()));
        if (ticking == null) {
            long ms = period.toMillis();
            // The first pass after one period: a command that ends sooner needs none, and its end is not kept waiting.
            ticking = timer.scheduleWithFixedDelay(this::safeTick, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Called when the child has exited, before the outcome is made: the last output is scanned so a
     * FAIL rule matching the final lines still fails the session. Then it is no longer watched.
     */
    void exited(Session session) {
        WatchedSession w = watched.remove(session.id());
        if (w == null) {
            return;
        }
        synchronized (w) {
            w.exited();
            insights.put(session.id(), w.publish(clock.instant()));
        }
        synchronized (this) {
            if (watched.isEmpty() && ticking != null) {
                ticking.cancel(false);
                ticking = null;
            }
        }
    }

    /** STOP or CONT was just sent through runboard: the session's status already says so (see {@link WatchedSession#update}). */
    void pausedBySignal(Session session) {
        WatchedSession w = watched.get(session.id());
        if (w != null) {
            synchronized (w) {
                w.pausedBySignal(clock.instant());
            }
        }
    }

    SessionInsight insight(String sessionId) {
        return insights.get(sessionId);
    }

    /** The last sampler pass (its cost is reported in the benchmarks). */
    ResourceSampler.Pass lastPass() {
        return lastPass;
    }

    private void safeTick() {
        try {
            tick();
        } catch (RuntimeException | Error e) {
            log().log(Level.WARNING, "session monitor pass failed", e);
        }
    }

    /** One pass over every watched session (the timer calls it; tests may too). */
    void tick() {
        List<WatchedSession> now = new ArrayList<>(watched.values());
        if (now.isEmpty()) {
            return;
        }
        // A remote session's processes are in its host's /proc: its output rules run here, its resources
        // come sampled by its host's poll.
        // A loop, not a stream: an exec's first pass runs while its command does (ResourceSampler says why).
        List<ResourceSampler.Target> targets = new ArrayList<>();
        for (WatchedSession w : now) {
            if (!w.session().spec().isRemote()) {
                targets.add(new ResourceSampler.Target(w.session().id(), w.session().pid(), w.group(groupOf)));
            }
        }
        ResourceSampler.Pass pass = sampler.sample(targets);
        lastPass = pass;
        Instant at = clock.instant();
        for (WatchedSession w : now) {
            String id = w.session().id();
            synchronized (w) {
                if (watched.containsKey(id)) {
                    w.update(w.session().spec().isRemote() ? remoteUsage.apply(w.session()) : pass.bySession().get(id), at);
                    insights.put(id, w.publish(at));
                }
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
