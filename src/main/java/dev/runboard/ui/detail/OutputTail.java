package dev.runboard.ui.detail;

import dev.runboard.ui.ansi.StyledLine;
import dev.runboard.ui.ansi.RuleHighlights;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.SimpleObjectProperty;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;
import javafx.collections.ObservableList;
import javafx.geometry.Bounds;
import javafx.scene.Node;
import javafx.scene.control.IndexedCell;
import javafx.scene.control.ListView;
import javafx.scene.control.ScrollBar;
import javafx.scene.control.SelectionMode;
import javafx.scene.control.skin.VirtualFlow;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;

/**
 * The behaviour of the output list: follow mode (stick to the end; a person scrolling up pauses
 * it, scrolling back to the end or the resume button restarts it), wrap, and find with
 * next/previous. The list is virtual, so only the visible lines cost nodes.
 */
final class OutputTail {
    /** One line of the 12.5 px monospace output (runboard.css .ansi-text) plus a little leading. */
    private static final double LINE_HEIGHT = 18;
    private final ListView<StyledLine> list;
    private final BooleanProperty follow = new SimpleBooleanProperty(this, "follow", true);
    private final BooleanProperty wrap = new SimpleBooleanProperty(this, "wrap", false);
    private final StringProperty query = new SimpleStringProperty(this, "query", "");
    /** Whether the tail followed when the current find began (a query typed into an empty field). */
    private boolean followedBeforeFind = true;
    private boolean wasFinding;
    /** Find reads the query as a regex, as the artifact viewer's search does. */
    private final BooleanProperty regex = new javafx.beans.property.SimpleBooleanProperty(this, "regex", false);
    private final ObjectProperty<RuleHighlights> highlights = new SimpleObjectProperty<>(this, "highlights", RuleHighlights.NONE);
    private final ObjectProperty<LineTimes> times = new SimpleObjectProperty<>(this, "times");
    private final ReadOnlyStringWrapper matchInfo = new ReadOnlyStringWrapper(this, "matchInfo", "");
    private List<Integer> matchLines = List.of();
    /** Tries in a row to reach the end that moved nothing; a few at most per change, so a flow that cannot get there does not re-layout every pulse. */
    private int fruitless;
    private static final int MAX_FRUITLESS = 3;
    private VirtualFlow<?> knownFlow;
    private Node viewport;
    private int current = -1;

    OutputTail(ListView<StyledLine> list) {
        this.list = list;
        list.getSelectionModel().setSelectionMode(SelectionMode.MULTIPLE);
        list.setCellFactory(l -> new TailLineCell(l, query, regex, wrap, highlights, times));
        list.addEventFilter(ScrollEvent.SCROLL, e -> {
            if (e.getDeltaY() > 0) {
                follow.set(false);
            }
        });
        list.addEventHandler(ScrollEvent.SCROLL, e -> {
            if (e.getDeltaY() < 0 && atEnd()) {
                follow.set(true);
            }
        });
        list.addEventFilter(KeyEvent.KEY_PRESSED, e -> {
            KeyCode k = e.getCode();
            if (k == KeyCode.UP || k == KeyCode.PAGE_UP || k == KeyCode.HOME) {
                follow.set(false);
            } else if (k == KeyCode.END) {
                follow.set(true);
            }
        });
        list.addEventFilter(MouseEvent.MOUSE_PRESSED, e -> {
            if (inScrollBar(e.getPickResult().getIntersectedNode())) {
                follow.set(false);
            }
        });
        follow.addListener((o, was, on) -> {
            if (on) {
                fruitless = 0;
                scrollToEnd();
            }
        });
        // Following ends at the last line whatever order item changes and layouts come in (a view laid
        // out before it had its size, a rolling window replaced in place, lines that wrap): after each
        // layout pass of the window it catches up.
        Runnable settle = () -> {
            if (follow.get() && list.getHeight() > 0) {
                settleAtEnd();
            }
        };
        list.sceneProperty().addListener((o, was, now) -> {
            if (was != null) {
                was.removePostLayoutPulseListener(settle);
            }
            if (now != null) {
                now.addPostLayoutPulseListener(settle);
            }
        });
        if (list.getScene() != null) {
            list.getScene().addPostLayoutPulseListener(settle);
        }
        query.addListener(o -> findMatches(true));
        regex.addListener(o -> findMatches(true));
        // Unwrapped lines are all one line high: a fixed size spares the list measuring every cell.
        list.setFixedCellSize(LINE_HEIGHT);
        wrap.addListener((o, was, on) -> list.setFixedCellSize(on ? Region.USE_COMPUTED_SIZE : LINE_HEIGHT));
    }

    void show(List<StyledLine> lines) {
        fruitless = 0;
        int before = list.getItems().size();
        replaceChanged(list.getItems(), lines);
        findMatches(false);
        // A line that only grew stays where it is; scrolling re-lays every visible line, so only new
        // lines scroll, or a view that is not at the end (it was laid out before it had a size).
        if (follow.get() && (list.getItems().size() != before || !atEnd())) {
            scrollToEnd();
        }
    }

    /**
     * Makes {@code items} equal {@code lines} by replacing only the run between their common
     * start and common end: a growing line or a few new ones then re-render a cell or two, not
     * every visible line. The list never shrinks on the way (a shorter list for a moment would
     * empty the last cells and rebuild them, restyling the window). A long run is replaced in one
     * change rather than line by line.
     */
    static <T> void replaceChanged(ObservableList<T> items, List<T> lines) {
        int oldSize = items.size();
        int newSize = lines.size();
        int start = 0;
        while (start < oldSize && start < newSize && same(items.get(start), lines.get(start))) {
            start++;
        }
        int end = 0;
        while (end < oldSize - start && end < newSize - start
                && same(items.get(oldSize - 1 - end), lines.get(newSize - 1 - end))) {
            end++;
        }
        if (start == oldSize && start == newSize) {
            return;
        }
        int changedOld = oldSize - start - end;
        int changedNew = newSize - start - end;
        int overlap = Math.min(changedOld, changedNew);
        // Where both lists have a line, the ones that differ (a flood of equal lines differs in a line or two).
        List<Integer> differing = new ArrayList<>();
        for (int i = start; i < start + overlap && differing.size() + Math.abs(changedOld - changedNew) <= SET_ONE_BY_ONE; i++) {
            if (!same(items.get(i), lines.get(i))) {
                differing.add(i);
            }
        }
        if (differing.size() + Math.abs(changedOld - changedNew) > SET_ONE_BY_ONE) {
            items.setAll(lines);
            return;
        }
        for (int i : differing) {
            items.set(i, lines.get(i));
        }
        if (changedNew > changedOld) {
            items.addAll(start + overlap, lines.subList(start + overlap, start + changedNew));
        } else if (changedOld > changedNew) {
            items.subList(start + overlap, start + changedOld).clear();
        }
    }

    /** Up to this many differing lines are set one by one (one small change each); more are replaced at once. */
    private static final int SET_ONE_BY_ONE = 32;

    private static boolean same(Object a, Object b) {
        return a == b || a.equals(b); // parsed lines are re-used, so most are the very same object
    }

    /** A different session: start again at its end. */
    void reset() {
        list.getSelectionModel().clearSelection();
        follow.set(true);
    }

    private void scrollToEnd() {
        if (!list.getItems().isEmpty()) {
            list.scrollTo(list.getItems().size() - 1);
        }
    }

    /**
     * After a layout, brings the last line wholly into view: a jump when it is not shown at all, else
     * the pixels by which it hangs below the viewport. The list places a jump by estimated line
     * heights, which wrapped lines (and a horizontal scroll bar that came with a long line) make
     * wrong, so it could stop short of the end or leave the last line under the scroll bar.
     */
    private void settleAtEnd() {
        VirtualFlow<?> flow = flow();
        if (flow == null || list.getItems().isEmpty() || fruitless >= MAX_FRUITLESS) {
            return;
        }
        IndexedCell<?> last = flow.getLastVisibleCell();
        int end = list.getItems().size() - 1;
        if (last != null && last.getIndex() >= end && overhang(last) <= 0.5) {
            fruitless = 0;
            return;
        }
        double moved = 0;
        if (last != null) {
            // What is still below: the part of the last shown line out of view, then the lines after it.
            double below = overhang(last) + (end - last.getIndex()) * Math.max(LINE_HEIGHT, last.getHeight());
            moved = flow.scrollPixels(below);
        }
        if (moved < 0.5) {
            scrollToEnd(); // nothing shown yet, or the flow thinks it is at the end: jump by its estimate
        }
        fruitless = moved < 0.5 ? fruitless + 1 : 0;
    }

    /** The last line is shown whole (a line cut by the viewport's bottom edge is not yet the end). */
    private boolean atEnd() {
        VirtualFlow<?> flow = flow();
        if (flow == null || list.getItems().isEmpty()) {
            return true;
        }
        IndexedCell<?> last = flow.getLastVisibleCell();
        return last != null && last.getIndex() >= list.getItems().size() - 1 && overhang(last) <= 0.5;
    }

    /** The list's flow and its viewport, looked up once: the check after every layout pass must stay cheap. */
    private VirtualFlow<?> flow() {
        if (knownFlow == null || knownFlow.getParent() == null) {
            knownFlow = (VirtualFlow<?>) list.lookup(".virtual-flow");
            viewport = knownFlow == null ? null : knownFlow.lookup(".clipped-container");
        }
        return knownFlow;
    }

    /** How far the cell reaches below the flow's viewport (its clipped container), in pixels. */
    private double overhang(IndexedCell<?> cell) {
        if (viewport == null) {
            return 0;
        }
        Bounds view = viewport.localToScene(viewport.getLayoutBounds());
        Bounds shown = cell.localToScene(cell.getLayoutBounds());
        return shown.getMaxY() - view.getMaxY();
    }

    private static boolean inScrollBar(Node n) {
        for (Node p = n; p != null; p = p.getParent()) {
            if (p instanceof ScrollBar) {
                return true;
            }
        }
        return false;
    }

    private void findMatches(boolean jump) {
        String q = query.get();
        List<Integer> found = new ArrayList<>();
        if (q != null && !q.isEmpty()) {
            for (int i = 0; i < list.getItems().size(); i++) {
                if (!TailLineCell.matches(list.getItems().get(i).plain(), q, regex.get()).isEmpty()) {
                    found.add(i);
                }
            }
        }
        matchLines = found;
        if (current >= found.size()) {
            current = found.size() - 1;
        }
        if (jump) {
            boolean finding = q != null && !q.isEmpty();
            if (finding && !wasFinding) {
                followedBeforeFind = follow.get();
            }
            wasFinding = finding;
            current = found.isEmpty() ? -1 : 0;
            reveal();
            if (found.isEmpty() && followedBeforeFind) {
                // Typing "ex" jumped to an early match of "e"; once nothing matches (or the query is
                // cleared) the tail goes back to following as it did before the find began.
                follow.set(true);
            }
        }
        updateInfo();
    }

    void next() {
        step(1);
    }

    void previous() {
        step(-1);
    }

    private void step(int delta) {
        if (matchLines.isEmpty()) {
            return;
        }
        current = Math.floorMod(current + delta, matchLines.size());
        reveal();
        updateInfo();
    }

    private void reveal() {
        if (current >= 0 && current < matchLines.size()) {
            follow.set(false);
            int line = matchLines.get(current);
            list.getSelectionModel().clearAndSelect(line);
            list.scrollTo(Math.max(0, line - 3));
        }
    }

    private void updateInfo() {
        String q = query.get();
        if (q == null || q.isEmpty()) {
            matchInfo.set("");
        } else if (regex.get() && FindMatches.pattern(q) == null) {
            matchInfo.set("not a valid regex");
        } else if (matchLines.isEmpty()) {
            matchInfo.set("no matches");
        } else if (current < 0) {
            matchInfo.set(matchLines.size() + (matchLines.size() == 1 ? " match" : " matches"));
        } else {
            matchInfo.set((current + 1) + " of " + matchLines.size());
        }
    }

    /** The selected lines, or the whole shown output when nothing is selected, as plain text. */
    String textToCopy() {
        List<StyledLine> chosen = list.getSelectionModel().getSelectedItems().isEmpty()
                ? list.getItems() : list.getSelectionModel().getSelectedItems();
        return chosen.stream().map(StyledLine::plain).collect(Collectors.joining("\n", "", "\n"));
    }

    BooleanProperty followProperty() {
        return follow;
    }

    BooleanProperty regexProperty() {
        return regex;
    }

    BooleanProperty wrapProperty() {
        return wrap;
    }

    /** The shown session's compiled HIGHLIGHT rules. */
    ObjectProperty<RuleHighlights> highlightsProperty() {
        return highlights;
    }

    /** The time gutter's source; null hides the gutter. */
    ObjectProperty<LineTimes> timesProperty() {
        return times;
    }

    StringProperty queryProperty() {
        return query;
    }

    ReadOnlyStringProperty matchInfoProperty() {
        return matchInfo.getReadOnlyProperty();
    }
}
