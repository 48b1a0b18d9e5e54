package dev.runboard.ui;

import dev.runboard.ui.common.UiTasks;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javafx.animation.PauseTransition;
import javafx.beans.InvalidationListener;
import javafx.beans.property.DoubleProperty;
import javafx.collections.FXCollections;
import javafx.collections.ObservableSet;
import javafx.collections.SetChangeListener;
import javafx.geometry.Rectangle2D;
import javafx.scene.control.SplitPane;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;
import javafx.stage.Screen;
import javafx.stage.Stage;
import javafx.util.Duration;

/**
 * Puts the window back where it was left (size, place, splits, column widths, hidden columns) and
 * remembers changes: a second after the last move or resize the state is written off the FX
 * thread, and once more when the window closes. A place on a screen that is gone is not restored.
 */
public final class WindowMemory {
    private static final Duration QUIET = Duration.seconds(1);
    private final Stage stage;
    private final Path dataDir;
    private final UiTasks tasks;
    private final Map<String, SplitPane> splits;
    /** Split positions that outlive their divider (the sidebar leaves its split while no workspace is open). */
    private final Map<String, DoubleProperty> positions;
    private final TableView<?> table;
    /** The ids of the columns the person hid (the table's column choice): restored into it, remembered from it. */
    private final ObservableSet<String> hiddenColumns;
    private final PauseTransition later = new PauseTransition(QUIET);
    private WindowState state;
    private CompletableFuture<?> lastWrite = CompletableFuture.completedFuture(null);
    private boolean closed;
    private boolean restored;
    private final InvalidationListener changed = o -> later.playFromStart();

    public WindowMemory(Stage stage, Path dataDir, UiTasks tasks, Map<String, SplitPane> splits, TableView<?> table) {
        this(stage, dataDir, tasks, splits, Map.of(), table, FXCollections.observableSet());
    }

    public WindowMemory(Stage stage, Path dataDir, UiTasks tasks, Map<String, SplitPane> splits,
                        Map<String, DoubleProperty> positions, TableView<?> table, ObservableSet<String> hiddenColumns) {
        this.stage = stage;
        this.dataDir = dataDir;
        this.tasks = tasks;
        this.splits = new java.util.LinkedHashMap<>(splits);
        this.positions = positions;
        this.table = table;
        this.hiddenColumns = hiddenColumns;
        this.state = WindowState.load(dataDir);
        later.setOnFinished(e -> save());
    }

    public WindowState state() {
        return state;
    }

    /** Applies the remembered state (before the window shows) and starts listening for changes. */
    public void restore() {
        List<Screen> screens = state.hasBounds()
                ? Screen.getScreensForRectangle(new Rectangle2D(state.x(), state.y(), state.width(), state.height()))
                : List.of();
        if (!screens.isEmpty()) {
            // Within the screen it was left on: a window left on a bigger monitor must not open past this one's edges.
            Rectangle2D bounds = fitted(new Rectangle2D(state.x(), state.y(),
                    Math.max(stage.getMinWidth(), state.width()), Math.max(stage.getMinHeight(), state.height())),
                    screens.get(0).getVisualBounds());
            stage.setX(bounds.getMinX());
            stage.setY(bounds.getMinY());
            stage.setWidth(bounds.getWidth());
            stage.setHeight(bounds.getHeight());
        }
        stage.setMaximized(state.maximized());
        splits.forEach(this::restoreSplit);
        positions.forEach((name, position) -> remembered(name).ifPresent(position::set));
        for (TableColumn<?, ?> c : table.getColumns()) {
            Double w = c.getId() == null ? null : state.columns().get(c.getId());
            if (w != null && w >= c.getMinWidth()) {
                c.setPrefWidth(w);
            }
        }
        hiddenColumns.addAll(state.hiddenColumns());
        restored = true;
        hiddenColumns.addListener((SetChangeListener<String>) c -> later.playFromStart());
        stage.xProperty().addListener(changed);
        stage.yProperty().addListener(changed);
        stage.widthProperty().addListener(changed);
        stage.heightProperty().addListener(changed);
        stage.maximizedProperty().addListener(changed);
        splits.values().forEach(s -> s.getDividers().forEach(d -> d.positionProperty().addListener(changed)));
        positions.values().forEach(p -> p.addListener(changed));
        table.getColumns().forEach(c -> c.widthProperty().addListener(changed));
    }

    /** The window's bounds no larger than the screen's visible area and moved into it where they stick out. */
    static Rectangle2D fitted(Rectangle2D window, Rectangle2D screen) {
        double width = Math.min(window.getWidth(), screen.getWidth());
        double height = Math.min(window.getHeight(), screen.getHeight());
        double x = Math.max(screen.getMinX(), Math.min(window.getMinX(), screen.getMaxX() - width));
        double y = Math.max(screen.getMinY(), Math.min(window.getMinY(), screen.getMaxY() - height));
        return new Rectangle2D(x, y, width, height);
    }

    /**
     * A split that joined the window after it opened (the detail pane is loaded when first needed): put
     * where it was left, and remembered from now on.
     */
    public void addSplit(String name, SplitPane split) {
        if (splits.putIfAbsent(name, split) == null && restored) {
            restoreSplit(name, split);
            split.getDividers().forEach(d -> d.positionProperty().addListener(changed));
        }
    }

    private void restoreSplit(String name, SplitPane split) {
        if (split.getDividers().size() > 0) {
            remembered(name).ifPresent(split::setDividerPositions);
        }
    }

    /** Where the split or edge {@code name} was left, a fraction strictly between 0 and 1, if it was. */
    private java.util.OptionalDouble remembered(String name) {
        Double at = state.splits().get(name);
        return at != null && at > 0 && at < 1 ? java.util.OptionalDouble.of(at) : java.util.OptionalDouble.empty();
    }

    /** Remembers whether to ask before quitting with running sessions, and saves. */
    public void setAskBeforeQuit(boolean ask) {
        state = state.withAskBeforeQuit(ask);
        save();
    }

    private WindowState capture() {
        Map<String, Double> at = new HashMap<>(state.splits());
        splits.forEach((name, split) -> {
            if (!split.getDividers().isEmpty()) {
                at.put(name, split.getDividers().get(0).getPosition());
            }
        });
        positions.forEach((name, position) -> at.put(name, position.get()));
        Map<String, Double> widths = new HashMap<>(state.columns());
        for (TableColumn<?, ?> c : table.getColumns()) {
            if (c.getId() != null && c.isVisible()) {
                widths.put(c.getId(), c.getWidth());
            }
        }
        // A maximized window keeps the size it had before, for when it is restored.
        boolean max = stage.isMaximized();
        return new WindowState(max ? state.x() : stage.getX(), max ? state.y() : stage.getY(),
                max ? state.width() : stage.getWidth(), max ? state.height() : stage.getHeight(), max, at, widths,
                List.copyOf(new TreeSet<>(hiddenColumns)), state.askBeforeQuit());
    }

    /** Captures on the FX thread, writes on a worker. */
    public void save() {
        later.stop();
        if (closed) {
            return;
        }
        state = capture();
        WindowState snapshot = state;
        lastWrite = tasks.background(() -> {
            snapshot.save(dataDir);
            return null;
        });
    }

    /**
     * The window is gone: a change still waiting for its quiet second is dropped (the stage's
     * last moves as it hides are no choice of the user's) and a write under way is waited for, so
     * nothing writes into the data dir after the window closed.
     */
    public void close() {
        later.stop();
        closed = true;
        try {
            lastWrite.get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the state is lost at worst; the window opens at its defaults next time
        }
    }

    /** Saves and waits a little for the write, as the window closes. */
    public void saveAndWait() {
        save();
        try {
            lastWrite.get(2, TimeUnit.SECONDS);
        } catch (Exception e) {
            // the window closes anyway; next time it opens at its defaults
        }
    }
}
