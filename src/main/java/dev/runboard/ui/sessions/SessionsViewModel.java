package dev.runboard.ui.sessions;

import dev.runboard.session.RunKey;
import dev.runboard.session.SessionInsight;
import dev.runboard.session.SessionService;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.ui.common.UiTasks;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.Predicate;
import javafx.application.Platform;
import javafx.beans.Observable;
import javafx.beans.binding.Bindings;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyIntegerProperty;
import javafx.beans.property.ReadOnlyIntegerWrapper;
import javafx.beans.property.ReadOnlyLongProperty;
import javafx.beans.property.ReadOnlyLongWrapper;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;
import javafx.collections.transformation.FilteredList;
import javafx.collections.transformation.SortedList;
import javafx.util.Duration;

/**
 * The observable list of sessions behind the table, kept current by one {@link SessionPoller}.
 * Fed by the service's add events and by {@link #add(SessionSpec, SessionSnapshot)}; it holds ids,
 * specs and snapshots, never the engine's sessions.
 * FX thread only, except the engine's start callback, which hops over once per session.
 */
public final class SessionsViewModel {
    private final ObservableList<SessionRow> rows =
            FXCollections.observableArrayList(r -> new Observable[] {r.statusProperty(), r.revisionProperty()});
    private final FilteredList<SessionRow> filtered = new FilteredList<>(rows);
    private final SortedList<SessionRow> sorted = new SortedList<>(filtered);
    private final Map<String, SessionRow> byId = new HashMap<>();
    /** Rows whose session may still change; a row leaves once its final snapshot was applied. */
    private final Set<SessionRow> polling = new LinkedHashSet<>();
    private final StringProperty filterText = new SimpleStringProperty(this, "filterText", "");
    private final ObjectProperty<StatusFilter> statusFilter = new SimpleObjectProperty<>(this, "statusFilter", StatusFilter.ALL);
    /** When set, only the runs of this command are shown (the "same command" filter). */
    private final ObjectProperty<RunKey> sameCommand = new SimpleObjectProperty<>(this, "sameCommand");
    private final ReadOnlyIntegerWrapper runningCount = new ReadOnlyIntegerWrapper(this, "runningCount");
    /** Whether a live session has an estimate to show (a progress, or "longer than usual"): the Progress column shows only then. */
    private final javafx.beans.property.ReadOnlyBooleanWrapper estimating = new javafx.beans.property.ReadOnlyBooleanWrapper(this, "estimating");
    private final ReadOnlyLongWrapper bytesOnDisk = new ReadOnlyLongWrapper(this, "bytesOnDisk");
    private final List<Consumer<SessionRow>> endListeners = new CopyOnWriteArrayList<>();
    private final List<BiConsumer<SessionRow, List<SessionInsight.Event>>> eventListeners = new CopyOnWriteArrayList<>();
    private final SessionPoller poller;
    /** Sessions added on other threads, waiting for the FX thread (see {@link #arrive}). */
    private final java.util.concurrent.ConcurrentLinkedQueue<java.util.Map.Entry<SessionSpec, SessionSnapshot>> arriving =
            new java.util.concurrent.ConcurrentLinkedQueue<>();
    private final java.util.concurrent.atomic.AtomicBoolean drainScheduled = new java.util.concurrent.atomic.AtomicBoolean();
    /** While the history loads, arrivals wait for {@link #releaseArrivals()}: the whole history joins the table in one go. */
    private final java.util.concurrent.atomic.AtomicBoolean holding = new java.util.concurrent.atomic.AtomicBoolean();
    /** How many sessions the history being loaded holds (the placeholder says so); -1 when nothing loads. */
    private final ReadOnlyIntegerWrapper loading = new ReadOnlyIntegerWrapper(this, "loading", -1);
    private final UiTasks tasks;
    /** What the table's order reads besides status (FX thread). */
    private Set<LiveColumn> sortReads = Set.of();

    public SessionsViewModel(Clock clock, Duration pollPeriod, UiTasks tasks) {
        this.tasks = tasks;
        filtered.predicateProperty().bind(Bindings.createObjectBinding(
                () -> matcher(filterText.get(), statusFilter.get()).and(sameCommand(sameCommand.get())),
                filterText, statusFilter, sameCommand));
        poller = new SessionPoller(() -> List.copyOf(polling), this::apply, clock, pollPeriod);
    }

    /** Shows every session the service knows and will know. */
    public void attach(SessionService engine) {
        poller.setSource(engine);
        engine.onAdded(first -> {
            SessionSpec spec = engine.spec(first.sessionId()); // here, on the adding thread: it may be gone by the hop
            if (spec != null) {
                arrive(spec, first);
            }
        });
        engine.onRemoved(id -> onFxThread(() -> {
            SessionRow row = byId.get(id);
            if (row != null) {
                remove(row);
            }
        }));
        for (SessionSnapshot s : engine.snapshots()) {
            SessionSpec spec = engine.spec(s.sessionId());
            if (spec != null) {
                add(spec, s);
            }
        }
    }

    /**
     * Adds a session from its spec and a snapshot (idempotent: the row already there wins); FX
     * thread. A running one is polled until its end is applied.
     */
    public SessionRow add(SessionSpec spec, SessionSnapshot first) {
        SessionRow existing = byId.get(first.sessionId());
        if (existing != null) {
            return existing;
        }
        SessionRow row = register(spec, first);
        rows.add(row);
        recount();
        return row;
    }

    /**
     * Puts back a session an Undo restored at {@code index}, where it stood when removed (appended,
     * it landed after the sessions still running); FX thread.
     */
    public SessionRow restore(SessionSpec spec, SessionSnapshot snapshot, int index) {
        SessionRow existing = byId.get(snapshot.sessionId());
        if (existing != null) {
            return existing;
        }
        SessionRow row = register(spec, snapshot);
        rows.add(Math.max(0, Math.min(index, rows.size())), row);
        recount();
        return row;
    }

    private SessionRow register(SessionSpec spec, SessionSnapshot first) {
        SessionRow row = new SessionRow(spec, first);
        byId.put(row.id(), row);
        if (!row.status().isTerminal() || row.isLingering()) { // waiting ones too: they start, or are skipped
            polling.add(row);
        }
        return row;
    }

    /**
     * A session the engine added on another thread: queued, and every session queued until the FX
     * thread gets to them joins the list in one go (a history of thousands loading in the
     * background costs a handful of hops, not one per session).
     */
    private void arrive(SessionSpec spec, SessionSnapshot first) {
        if (Platform.isFxApplicationThread()) {
            add(spec, first);
            return;
        }
        arriving.add(java.util.Map.entry(spec, first));
        if (!holding.get() && drainScheduled.compareAndSet(false, true)) {
            tasks.fx(this::drainArrivals);
        }
    }

    private void drainArrivals() {
        drainScheduled.set(false);
        List<SessionRow> joined = new ArrayList<>();
        for (java.util.Map.Entry<SessionSpec, SessionSnapshot> e; (e = arriving.poll()) != null; ) {
            if (!byId.containsKey(e.getValue().sessionId())) {
                joined.add(register(e.getKey(), e.getValue()));
            }
        }
        if (!joined.isEmpty()) {
            rows.addAll(joined);
            recount();
        }
    }

    /**
     * Shows that a history of {@code sessions} sessions is loading (the table's placeholder says
     * so) and keeps the sessions that arrive meanwhile from joining the table one batch per hop:
     * a table of 10,000 rows re-sorted on each hop costs the FX thread more than the rows
     * themselves. FX thread.
     */
    public void holdArrivals(int sessions) {
        holding.set(true);
        loading.set(Math.max(0, sessions));
    }

    /** The history is read: everything that arrived joins the table in one batch. FX thread. */
    public void releaseArrivals() {
        holding.set(false);
        drainArrivals();
        loading.set(-1);
    }

    /** How many sessions the history being loaded holds, 0 when not yet known; -1 when nothing loads. */
    public ReadOnlyIntegerProperty loadingProperty() {
        return loading.getReadOnlyProperty();
    }

    public void remove(SessionRow row) {
        byId.remove(row.id());
        polling.remove(row);
        rows.remove(row);
        recount();
    }

    public SessionRow find(String sessionId) {
        return byId.get(sessionId);
    }

    /** Applies one tick's snapshots in one go (FX thread). */
    void apply(SessionPoller.Tick tick) {
        if (!Platform.isFxApplicationThread()) {
            throw new IllegalStateException("snapshots must be applied on the FX thread");
        }
        List<SessionRow> ended = new ArrayList<>();
        boolean live = tick.live();
        boolean started = false; // a waiting session that began to run counts at once (the quit question reads the count)
        int resortOn = resortOn(live);
        for (SessionPoller.Update u : tick.updates()) {
            if (!byId.containsKey(u.row().id())) {
                continue; // removed from the list while the poll ran
            }
            boolean wasRunning = u.row().isRunning();
            int changed = u.row().apply(u.snapshot(), tick.now(), live);
            started |= !wasRunning && u.row().isRunning();
            changed |= u.row().applyInsight(u.insight(), live || wasRunning != u.row().isRunning());
            if ((changed & resortOn) != 0) {
                u.row().touch();
            }
            List<SessionInsight.Event> fresh = u.row().takeNewEvents(u.insight());
            if (!fresh.isEmpty()) {
                eventListeners.forEach(l -> l.accept(u.row(), fresh));
            }
            if (u.snapshot().status().isTerminal() && u.snapshot().lingering().isEmpty()) {
                polling.remove(u.row()); // (one whose wrapper holds what it left behind stays: Kill can end those)
                if (wasRunning) {
                    ended.add(u.row());
                }
            }
        }
        if (live || started || !ended.isEmpty()) {
            recount();
        }
        estimating.set(polling.stream().map(SessionRow::snapshot).anyMatch(s -> s.isRunning() && (s.progress() != null || s.longerThanUsual())));
        ended.forEach(r -> endListeners.forEach(l -> l.accept(r)));
    }

    /**
     * Which row changes this tick must re-sort and re-filter (a status change always does, through
     * the list's extractor): the last line while the text filter or the order reads it; counters
     * when the order reads them. Both change only on live-value ticks, so a table sorted by output
     * size follows a flood without rebuilding its rows on every poll.
     */
    private int resortOn(boolean live) {
        if (!live) {
            return 0;
        }
        return (sortReads.contains(LiveColumn.LAST_LINE) || !filterText.get().isBlank() ? SessionRow.LAST_LINE_CHANGED : 0)
                | (sortReads.contains(LiveColumn.COUNTERS) ? SessionRow.COUNTERS_CHANGED : 0);
    }

    /** Tells the list what the table's current sort order reads (FX thread); see {@link LiveColumn}. */
    public void setSortReads(Set<LiveColumn> columns) {
        sortReads = Set.copyOf(columns);
    }

    private void recount() {
        int running = 0;
        long onDisk = 0;
        for (SessionRow r : rows) {
            SessionSnapshot s = r.snapshot();
            if (r.isRunning()) {
                running++;
            }
            onDisk += s.outputBytes(); // every session's output stays on disk, byte for byte
        }
        runningCount.set(running);
        bytesOnDisk.set(onDisk);
    }

    static Predicate<SessionRow> matcher(String text, StatusFilter status) {
        String needle = text == null ? "" : text.strip().toLowerCase(Locale.ROOT);
        StatusFilter st = status == null ? StatusFilter.ALL : status;
        return row -> st.accepts(row.status()) && (needle.isEmpty()
                || contains(row.commandProperty().get(), needle)
                || contains(row.cwdProperty().get(), needle)
                || contains(row.lastLineProperty().get(), needle)
                || row.status().word().contains(needle));
    }

    private static Predicate<SessionRow> sameCommand(RunKey key) {
        return row -> key == null || key.equals(RunKey.of(row.spec()));
    }

    private static boolean contains(String hay, String needle) {
        return hay != null && hay.toLowerCase(Locale.ROOT).contains(needle);
    }

    /** Told on the FX thread when a row's session ends (not for rows added already ended). */
    public void onSessionEnded(Consumer<SessionRow> listener) {
        endListeners.add(listener);
    }

    /** Told on the FX thread, once per tick, with a row's events that are new since the previous tick. */
    public void onNewEvents(BiConsumer<SessionRow, List<SessionInsight.Event>> listener) {
        eventListeners.add(listener);
    }

    public void startPolling() {
        if (!poller.isRunning()) {
            poller.restart();
        }
    }

    /** Must run on the FX thread (ScheduledService.cancel does). */
    public void stopPolling() {
        poller.cancel();
    }

    /** How many rows the poller still visits each tick (finished rows are not among them). */
    public int polledRowCount() {
        return polling.size();
    }

    public SessionPoller poller() {
        return poller;
    }

    private void onFxThread(Runnable r) {
        if (Platform.isFxApplicationThread()) {
            r.run();
        } else {
            tasks.fx(r); // once per session start or removal, never per output line
        }
    }

    public ObservableList<SessionRow> rows() {
        return rows;
    }

    /** Filtered and sorted: what the table shows (bind its comparator to this list's). */
    public SortedList<SessionRow> visibleRows() {
        return sorted;
    }

    public StringProperty filterTextProperty() {
        return filterText;
    }

    public ObjectProperty<RunKey> sameCommandProperty() {
        return sameCommand;
    }

    public ObjectProperty<StatusFilter> statusFilterProperty() {
        return statusFilter;
    }

    public javafx.beans.property.ReadOnlyBooleanProperty estimatingProperty() {
        return estimating.getReadOnlyProperty();
    }

    public ReadOnlyIntegerProperty runningCountProperty() {
        return runningCount.getReadOnlyProperty();
    }

    public ReadOnlyLongProperty bytesOnDiskProperty() {
        return bytesOnDisk.getReadOnlyProperty();
    }
}
