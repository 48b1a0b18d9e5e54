package dev.runboard.ui.sessions;

import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionService;
import dev.runboard.session.SessionSnapshot;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;
import javafx.application.Platform;
import javafx.concurrent.ScheduledService;
import javafx.concurrent.Task;
import javafx.util.Duration;

/**
 * The one hand-off point from running children to the FX thread (Cryptomator's VaultStats
 * pattern): each period a task snapshots the rows still being polled off the FX thread, and
 * {@link #succeeded()} hands all of them over at once. Rows that ended leave the poll set, so
 * finished sessions cost nothing per tick.
 */
public final class SessionPoller extends ScheduledService<SessionPoller.Tick> {
    private static final Logger LOG = Logger.getLogger(SessionPoller.class.getName());
    public static final Duration DEFAULT_PERIOD = Duration.millis(200);

    /**
     * One poll: the shared clock tick and a snapshot per polled row. On a {@code live} tick (once
     * per {@link #LIVE_PERIOD}) every snapshot has freshly read output and the rows refresh their
     * elapsed, output size and last line; between them only the watched row's output is re-read.
     */
    public record Tick(Instant now, List<Update> updates, boolean live) {
    }

    /**
     * How often every running row's output is re-read and its elapsed, output size and last line
     * refreshed (as in top). A status change shows on the next poll whatever this is: on a
     * machine busy with 20 floods, re-reading and repainting 20 rows five times a second starved
     * the window.
     */
    public static final java.time.Duration LIVE_PERIOD = java.time.Duration.ofSeconds(1);

    /** A row's fresh snapshot and the engine monitor's latest insight (resources, tree; null when unknown). */
    public record Update(SessionRow row, SessionSnapshot snapshot, SessionInsight insight) {
    }

    private final Supplier<List<SessionRow>> pollSet;
    private final Consumer<Tick> applier;
    private final Clock clock;
    private volatile SessionService source;
    private volatile Function<String, SessionInsight> insights = id -> null;
    private Supplier<SessionRow> watched = () -> null; // FX thread
    private Instant nextLive = Instant.MIN; // FX thread

    /**
     * @param pollSet read on the FX thread when a task is made (a copy goes to the worker)
     * @param applier called on the FX thread with each tick's snapshots
     */
    public SessionPoller(Supplier<List<SessionRow>> pollSet, Consumer<Tick> applier, Clock clock, Duration period) {
        this.pollSet = Objects.requireNonNull(pollSet);
        this.applier = Objects.requireNonNull(applier);
        this.clock = Objects.requireNonNull(clock);
        setPeriod(period);
        setExecutor(daemonExecutor());
    }

    /**
     * Where the task reads each session's snapshot and insight, by the row's id (the engine's
     * monitor samples; the poller only collects). Until then a tick brings nothing.
     */
    public void setSource(SessionService source) {
        this.insights = source::insight;
        this.source = Objects.requireNonNull(source);
    }

    /** Where the task reads each session's insight, by id, if not from the {@link #setSource source}. */
    public void setInsights(Function<String, SessionInsight> insights) {
        this.insights = Objects.requireNonNull(insights);
    }

    /** The row whose output is on screen (the detail pane's): its output is re-read on every tick. FX thread. */
    public void setWatched(Supplier<SessionRow> watched) {
        this.watched = Objects.requireNonNull(watched);
    }

    @Override
    protected Task<Tick> createTask() {
        // createTask runs on the FX thread: the rows are read here; below, only their ids and the service.
        List<SessionRow> rows = List.copyOf(pollSet.get());
        SessionService service = source;
        SessionRow shown = watched.get();
        Instant at = clock.instant();
        boolean live = !at.isBefore(nextLive);
        if (live) {
            nextLive = at.plus(LIVE_PERIOD);
        }
        return new Task<>() {
            @Override
            protected Tick call() {
                Instant now = clock.instant();
                List<Update> updates = new ArrayList<>(rows.size());
                for (SessionRow row : rows) {
                    SessionSnapshot snapshot = service == null ? null : service.snapshot(row.id(), live || row == shown);
                    if (snapshot != null) { // null: the session left the service; its row leaves on the removal event
                        updates.add(new Update(row, snapshot, insights.apply(row.id())));
                    }
                }
                return new Tick(now, updates, live);
            }
        };
    }

    @Override
    protected void succeeded() {
        // Read before super.succeeded(): it reschedules the service, which clears the value.
        Tick tick = getValue();
        super.succeeded();
        if (!Platform.isFxApplicationThread()) {
            throw new IllegalStateException("poll results must be applied on the FX thread");
        }
        if (tick != null) {
            applier.accept(tick);
        }
    }

    @Override
    protected void failed() {
        super.failed();
        // ScheduledService restarts after a failure; one bad read must not stop the table updating.
        LOG.log(Level.WARNING, "session poll failed", getException());
    }

    private static ExecutorService daemonExecutor() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "runboard-poller");
            t.setDaemon(true);
            return t;
        });
    }
}
