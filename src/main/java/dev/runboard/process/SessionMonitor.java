package dev.runboard.process;

import dev.runboard.session.AnsiText;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.OutputRule;
import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.ResourcePoint;
import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Sizes;
import dev.runboard.session.WatchSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Watches running sessions once per period on one thread: one {@link ResourceSampler} pass for all
 * of them, then per session the output rules (new output only), the hang watchdog and the runaway
 * guards. What it learns is published as an immutable {@link SessionInsight} per session, kept
 * after the end so the charts show the whole life. Ends sessions through the engine's {@link Ender}.
 */
final class SessionMonitor implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(SessionMonitor.class.getName());
    static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    /** Output read for rules per session per pass; a flood beyond it is skipped (and said so), not queued. */
    private static final int SCAN_LIMIT = 16 << 20;
    private static final int MAX_LINE = 64 << 10;
    private static final int MAX_EVENTS = 200;
    private static final int HISTORY_POINTS = 600;
    /** A NOTIFY rule that keeps matching is recorded again at most this often (a flood is one event per period). */
    static final Duration NOTIFY_REPEAT = Duration.ofSeconds(10);

    /** How the monitor ends a session (the engine's tree kill with a status and a reason). */
    interface Ender {
        void end(Session session, SessionStatus why, String reason);
    }

    private final ResourceSampler sampler;
    private final Clock clock;
    private final Ender ender;
    private final Duration period;
    private final Map<String, Watched> watched = new ConcurrentHashMap<>();
    private final Map<String, SessionInsight> insights = new ConcurrentHashMap<>();
    private final AtomicLong eventSeq = new AtomicLong();
    private final ScheduledExecutorService timer;
    private ScheduledFuture<?> ticking;
    private volatile ResourceSampler.Pass lastPass;
    /** Where a remote session's usage comes from (its host's poll); none by default. */
    private volatile java.util.function.Function<Session, ResourceSampler.Usage> remoteUsage = s -> null;
    /** Told of each event as it is found (the owner keeps them with the session); none by default. */
    private volatile java.util.function.BiConsumer<Session, SessionInsight.Event> eventSink = (s, e) -> { };

    SessionMonitor(Clock clock, Ender ender, Duration period) {
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
    void onEvent(java.util.function.BiConsumer<Session, SessionInsight.Event> sink) {
        this.eventSink = sink;
    }

    /** Remote sessions' resources come from {@code source} (their processes are in their host's /proc). */
    void sampleRemoteWith(java.util.function.Function<Session, ResourceSampler.Usage> source) {
        this.remoteUsage = source;
    }

    /** Starts watching a session that has started; the timer runs while anything is watched. */
    synchronized void watch(Session session) {
        if (session.pid() == null) {
            return;
        }
        watched.put(session.id(), new Watched(session, clock.instant()));
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
        Watched w = watched.remove(session.id());
        if (w == null) {
            return;
        }
        synchronized (w) {
            w.scanRules(true);
            w.usage = null; // the tree is gone; peak RSS, CPU time and the history stay
            insights.put(session.id(), w.publish(clock.instant()));
        }
        synchronized (this) {
            if (watched.isEmpty() && ticking != null) {
                ticking.cancel(false);
                ticking = null;
            }
        }
    }

    /** STOP or CONT was just sent through runboard: the session's status already says so (see {@link Watched#update}). */
    void pausedBySignal(Session session) {
        Watched w = watched.get(session.id());
        if (w != null) {
            synchronized (w) {
                w.pausedBySignalAt = clock.instant();
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
            LOG.log(Level.WARNING, "session monitor pass failed", e);
        }
    }

    /** One pass over every watched session (the timer calls it; tests may too). */
    void tick() {
        List<Watched> now = new ArrayList<>(watched.values());
        if (now.isEmpty()) {
            return;
        }
        // A remote session's processes are in its host's /proc: its output rules run here, its resources
        // come sampled by its host's poll.
        List<ResourceSampler.Target> targets = now.stream().filter(w -> !w.session.spec().isRemote())
                .map(w -> new ResourceSampler.Target(w.session.id(), w.session.pid())).toList();
        ResourceSampler.Pass pass = sampler.sample(targets);
        lastPass = pass;
        Instant at = clock.instant();
        for (Watched w : now) {
            synchronized (w) {
                if (watched.containsKey(w.session.id())) {
                    w.update(w.session.spec().isRemote() ? remoteUsage.apply(w.session) : pass.bySession().get(w.session.id()),
                            at);
                    insights.put(w.session.id(), w.publish(at));
                }
            }
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** Per-session state, guarded by its own monitor. */
    private final class Watched {
        final Session session;
        final WatchSpec spec;
        final List<Pattern> patterns = new ArrayList<>();
        final ResourceHistory history = new ResourceHistory(HISTORY_POINTS);
        final List<SessionInsight.Event> events = new ArrayList<>();
        /** When each NOTIFY rule (by index) was last recorded. */
        final Map<Integer, Instant> notified = new HashMap<>();
        final ByteArrayOutputStream carry = new ByteArrayOutputStream();
        long scanned;
        boolean ended;
        ResourceSampler.Usage usage;
        long peakRss;
        double cpuSeconds;
        long lastSize;
        Instant lastSizeAt;
        Instant lastOutputAt;
        boolean hung;
        Instant cpuOverSince;
        /** When STOP or CONT was last sent through runboard (null if never). */
        Instant pausedBySignalAt;

        Watched(Session session, Instant startedAt) {
            this.session = session;
            this.spec = session.spec().watch();
            spec.rules().forEach(r -> patterns.add(r.compile()));
            this.lastOutputAt = startedAt;
            this.lastSizeAt = startedAt;
        }

        void update(ResourceSampler.Usage u, Instant at) {
            long size = captureSize();
            double seconds = Math.max(1e-3, Duration.between(lastSizeAt, at).toNanos() / 1e9);
            double rate = Math.max(0, size - lastSize) / seconds;
            boolean paused = u != null && u.tree().allStopped();
            // A tree stopped from outside runboard reads paused too; a look at /proc taken as STOP or
            // CONT was being sent may predate its effect, so for one period the signal's word stands.
            if (u != null && (pausedBySignalAt == null || Duration.between(pausedBySignalAt, at).compareTo(period) > 0)) {
                session.markPaused(paused);
            }
            if (paused) {
                lastOutputAt = at; // a paused session is quiet on purpose: the watchdog does not count it
                hung = false;
            } else if (size != lastSize) {
                lastOutputAt = writtenAt(at);
                hung = false;
            }
            lastSize = size;
            lastSizeAt = at;
            if (u != null) {
                usage = u;
                peakRss = Math.max(peakRss, u.rssBytes());
                cpuSeconds = Math.max(cpuSeconds, u.cpuSeconds());
                history.add(new ResourcePoint(at, u.cpuPercent(), u.rssBytes(), rate));
            }
            scanRules(false);
            watchHang(at);
            guard(u, at);
        }

        private void watchHang(Instant at) {
            Duration limit = spec.hangAfter();
            if (limit == null || ended || hung || Duration.between(lastOutputAt, at).compareTo(limit) < 0) {
                return;
            }
            hung = true;
            String what = "no output for " + SessionFinisher.seconds(limit);
            if (spec.hangAction() == WatchSpec.HangAction.KILL) {
                event(SessionInsight.Kind.HANG, what + ": killing the tree (hang watchdog)");
                end(SessionStatus.KILLED, what + " (hang watchdog)");
            } else {
                event(SessionInsight.Kind.HANG, what + " (hang watchdog)");
            }
        }

        private void guard(ResourceSampler.Usage u, Instant at) {
            if (u == null || ended) {
                return;
            }
            Long maxRss = spec.maxRssBytes();
            if (maxRss != null && u.rssBytes() > maxRss) {
                // In the binary units the limit was given in (--max-rss 50M reads "50 MiB", not "52 MB").
                String why = "runaway guard: RSS " + Sizes.format(u.rssBytes()) + " exceeded the limit of " + Sizes.format(maxRss);
                event(SessionInsight.Kind.GUARD, why);
                end(SessionStatus.KILLED, why);
                return;
            }
            Double maxCpu = spec.maxCpuPercent();
            if (maxCpu == null) {
                return;
            }
            if (u.cpuPercent() <= maxCpu) {
                cpuOverSince = null;
            } else if (cpuOverSince == null) {
                cpuOverSince = at;
            }
            if (cpuOverSince != null && Duration.between(cpuOverSince, at).compareTo(spec.cpuFor()) >= 0) {
                String why = String.format(java.util.Locale.ROOT, "runaway guard: CPU above %.0f %% for %s (last %.0f %%)",
                        maxCpu, SessionFinisher.seconds(spec.cpuFor()), u.cpuPercent());
                event(SessionInsight.Kind.GUARD, why);
                end(SessionStatus.KILLED, why);
            }
        }

        /** Reads output written since the last scan and runs the rules over each complete line. */
        void scanRules(boolean last) {
            if (patterns.isEmpty() || session.captureFile() == null) {
                return;
            }
            try (FileChannel ch = FileChannel.open(session.captureFile(), StandardOpenOption.READ)) {
                long size = ch.size();
                if (size - scanned > SCAN_LIMIT) {
                    long skip = size - SCAN_LIMIT - scanned;
                    event(SessionInsight.Kind.INFO, "output rules skipped " + OutputPreview.humanBytes(skip)
                            + " of a flood (they read at most " + OutputPreview.humanBytes(SCAN_LIMIT) + " a pass)");
                    scanned += skip;
                    carry.reset();
                }
                ByteBuffer buf = ByteBuffer.allocate((int) Math.min(size - scanned, 1 << 20));
                while (scanned < size) {
                    buf.clear();
                    int n = ch.read(buf, scanned);
                    if (n <= 0) {
                        break;
                    }
                    scanned += n;
                    byte[] a = buf.array();
                    int from = 0;
                    for (int i = 0; i < n; i++) {
                        if (a[i] == '\n') {
                            carry.write(a, from, i - from);
                            line();
                            from = i + 1;
                        }
                    }
                    carry.write(a, from, n - from);
                    if (carry.size() > MAX_LINE) {
                        line(); // a very long line is checked in pieces rather than held without bound
                    }
                }
            } catch (IOException e) {
                return; // the capture moved at the end, or is unreadable: nothing to scan
            }
            if (last && carry.size() > 0) {
                line();
            }
        }

        private void line() {
            String text = AnsiText.strip(carry.toString(StandardCharsets.UTF_8)).replace("\r", "");
            carry.reset();
            for (int i = 0; i < patterns.size(); i++) {
                if (!patterns.get(i).matcher(text).find()) {
                    continue;
                }
                OutputRule rule = spec.rules().get(i);
                switch (rule.action()) {
                    case FAIL -> {
                        if (!ended) {
                            String why = "output matched rule /" + rule.pattern() + "/: " + abbreviate(text);
                            event(SessionInsight.Kind.RULE_MATCH, why, rule.pattern());
                            end(SessionStatus.FAILED, why);
                        }
                    }
                    case NOTIFY -> {
                        Instant now = clock.instant();
                        Instant last = notified.get(i);
                        if (last == null || !now.isBefore(last.plus(NOTIFY_REPEAT))) {
                            notified.put(i, now);
                            event(SessionInsight.Kind.NOTIFY, "/" + rule.pattern() + "/ matched: " + abbreviate(text), rule.pattern());
                        }
                    }
                    case HIGHLIGHT -> {
                        // the tail highlights matches itself from the spec's rules
                    }
                }
            }
        }

        private void end(SessionStatus why, String reason) {
            ended = true;
            if (session.status().isLive() && session.requestedEnd() == null) {
                if (session.captureFile() != null && isExited()) {
                    session.requestEnd(why, reason); // already gone: only the outcome changes
                } else {
                    ender.end(session, why, reason);
                }
            }
        }

        private boolean isExited() {
            return !watched.containsKey(session.id());
        }

        private void event(SessionInsight.Kind kind, String message) {
            event(kind, message, null);
        }

        private void event(SessionInsight.Kind kind, String message, String rule) {
            SessionInsight.Event e = new SessionInsight.Event(eventSeq.incrementAndGet(), clock.instant(), kind, message, rule);
            events.add(e);
            eventSink.accept(session, e);
            if (events.size() > MAX_EVENTS) {
                events.remove(0);
            }
        }

        /**
         * When the output last grew: the capture's modification time, which can be up to a period
         * earlier than this pass (so "no output for 2 s" is measured from the output, not from
         * the pass that saw it); never before the last output already seen (output written before
         * the watch began counts from its start); this pass's time when the file's clock disagrees
         * with ours (a test's clock).
         */
        private Instant writtenAt(Instant at) {
            try {
                Instant modified = Files.getLastModifiedTime(session.captureFile()).toInstant();
                if (modified.isAfter(at) || Duration.between(modified, at).compareTo(period.multipliedBy(3)) > 0) {
                    return at;
                }
                return modified.isBefore(lastOutputAt) ? lastOutputAt : modified;
            } catch (IOException | RuntimeException e) {
                return at;
            }
        }

        private long captureSize() {
            try {
                return session.captureFile() == null ? lastSize : Files.size(session.captureFile());
            } catch (IOException e) {
                return lastSize;
            }
        }

        SessionInsight publish(Instant at) {
            ResourceSampler.Usage u = usage;
            return new SessionInsight(session.id(), at, u == null ? 0 : u.cpuPercent(), u == null ? 0 : u.rssBytes(),
                    cpuSeconds, peakRss, u == null ? ProcessTreeSnapshot.EMPTY : u.tree(), history.points(),
                    events, hung);
        }
    }

    private static String abbreviate(String s) {
        String t = s.strip();
        return t.length() <= 160 ? t : t.substring(0, 157) + "...";
    }
}
