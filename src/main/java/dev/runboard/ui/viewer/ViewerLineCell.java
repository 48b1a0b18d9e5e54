package dev.runboard.ui.viewer;

import dev.runboard.artifact.TimeIndex;
import dev.runboard.artifact.ViewerLine;
import dev.runboard.ui.ansi.AnsiParser;
import dev.runboard.ui.ansi.AnsiTextFlow;
import dev.runboard.ui.ansi.RuleHighlights;
import dev.runboard.ui.ansi.SgrStyle;
import dev.runboard.ui.ansi.StyledRun;
import dev.runboard.ui.ansi.StyledLine;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import javafx.css.PseudoClass;
import javafx.scene.control.Label;
import javafx.scene.control.ListCell;
import javafx.scene.layout.HBox;
import javafx.scene.text.Text;

/**
 * One file line: a number gutter and the line's ANSI-styled runs, search hits as
 * {@code find-match} runs (the current one also {@code find-current}), and a marker run when the
 * line was cut. Styling follows the tail pane's classes so themes treat both alike.
 */
final class ViewerLineCell extends ListCell<ViewerLine> {
    private static final PseudoClass MATCH = PseudoClass.getPseudoClass("match");
    private static final PseudoClass RULE_HIGHLIGHT = PseudoClass.getPseudoClass("rule-highlight");
    /** Key in the list's properties of the session's compiled HIGHLIGHT rules ({@link RuleHighlights}). */
    static final String RULES_KEY = "runboard.ruleHighlights";
    private final Label number = new Label();
    /** The time gutter: when the line was written, shown while the viewer's Times toggle is on. */
    private final Label time = new Label();
    private final AnsiTextFlow flow = new AnsiTextFlow();
    private final HBox box = new HBox(number, time, flow);
    private final Supplier<Highlight> highlight;
    private final Supplier<TimeIndex> times;

    ViewerLineCell(Supplier<Highlight> highlight, Supplier<TimeIndex> times) {
        this.highlight = highlight;
        this.times = times;
        number.getStyleClass().add("line-number");
        number.setMinWidth(USE_PREF_SIZE);
        time.getStyleClass().addAll("line-number", "line-time");
        time.setMinWidth(USE_PREF_SIZE);
        time.managedProperty().bind(time.visibleProperty());
        flow.getStyleClass().add("viewer-flow");
        getStyleClass().add("viewer-line");
    }

    @Override
    protected void updateItem(ViewerLine line, boolean empty) {
        super.updateItem(line, empty);
        setText(null);
        if (empty || line == null) {
            setGraphic(null);
            pseudoClassStateChanged(MATCH, false);
            pseudoClassStateChanged(RULE_HIGHLIGHT, false);
            return;
        }
        number.setText(line.number() < 0 ? "" : String.valueOf(line.number() + 1));
        TimeIndex t = times.get();
        time.setVisible(t != null);
        long millis = t == null ? -1 : t.timeOf(line.start());
        time.setText(millis < 0 ? "            " : TimeIndex.stamp(millis)); // blank but as wide: past the index so far
        Highlight h = highlight.get();
        List<StyledLine> parsed = new AnsiParser().parse(line.text());
        StyledLine styled = parsed.isEmpty() ? StyledLine.plain("") : parsed.get(0);
        pseudoClassStateChanged(RULE_HIGHLIGHT, getListView() != null
                && getListView().getProperties().get(RULES_KEY) instanceof RuleHighlights rules && rules.matches(styled.plain()));
        List<int[]> hits = h == null ? List.of() : h.hits(styled.plain());
        int current = h == null ? -1 : h.currentOrdinal(line);
        pseudoClassStateChanged(MATCH, current >= 0);
        List<Text> runs = new ArrayList<>();
        int offset = 0;
        for (StyledLine.Span span : styled.spans()) {
            StyledRun.addRuns(runs, span, offset, hits, current);
            offset += span.text().length();
        }
        if (runs.isEmpty()) {
            runs.add(StyledRun.of(" ", SgrStyle.PLAIN));
        }
        if (line.cutBytes() > 0) {
            Text cut = new Text("  " + ViewerLine.cutMarker(line.cutBytes()));
            cut.getStyleClass().add("line-cut");
            runs.add(cut);
        }
        flow.show(runs);
        setGraphic(box);
    }

    /** The search to show: its pattern, the kept match offsets and which one is current. */
    record Highlight(java.util.regex.Pattern pattern, long[] offsets, int current) {
        List<int[]> hits(String plain) {
            List<int[]> found = new ArrayList<>();
            Matcher m = pattern.matcher(plain);
            while (m.find() && found.size() < 1000) {
                if (m.end() > m.start()) {
                    found.add(new int[] {m.start(), m.end()});
                }
            }
            return found;
        }

        /** Which hit of this line is the current match (0-based), or -1 when it is on another line. */
        int currentOrdinal(ViewerLine line) {
            if (current < 0 || current >= offsets.length) {
                return -1;
            }
            long at = offsets[current];
            if (at < line.start() || at >= Math.max(line.next(), line.start() + 1)) {
                return -1;
            }
            int first = java.util.Arrays.binarySearch(offsets, 0, current, line.start());
            first = first >= 0 ? first : -first - 1;
            while (first > 0 && offsets[first - 1] >= line.start()) {
                first--;
            }
            return current - first;
        }
    }
}
