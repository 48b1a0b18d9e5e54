package dev.runboard.ui.detail;

import dev.runboard.ui.ansi.AnsiTextFlow;
import dev.runboard.ui.ansi.SgrStyle;
import dev.runboard.ui.ansi.StyledRun;
import dev.runboard.ui.ansi.StyledLine;
import dev.runboard.ui.ansi.RuleHighlights;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javafx.beans.InvalidationListener;
import javafx.beans.WeakInvalidationListener;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.StringProperty;
import javafx.css.PseudoClass;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.text.Text;

/**
 * One output line as a flow of styled Text runs (backgrounds painted behind them). Palette colours and attributes are CSS
 * classes ({@code ansi-fg-1}, {@code ansi-bold}) so themes tune them; only 256-colour/true-colour
 * runs get a fill from code. Find matches become separate runs with the {@code find-match} class;
 * a line matching a HIGHLIGHT output rule gets the {@code :rule-highlight} pseudo-class.
 */
final class TailLineCell extends ListCell<StyledLine> {
    private static final PseudoClass MATCH = PseudoClass.getPseudoClass("match");
    /** The line matches one of the session's HIGHLIGHT output rules. */
    static final PseudoClass RULE_HIGHLIGHT = PseudoClass.getPseudoClass("rule-highlight");
    private final AnsiTextFlow flow = new AnsiTextFlow();
    private final StringProperty query;
    private final ObjectProperty<RuleHighlights> highlights;
    private final BooleanProperty wrap;
    /** The time gutter's source while the Times toggle is on, else null. */
    private final ObjectProperty<LineTimes> times;
    private final InvalidationListener rerender;
    private final InvalidationListener resize;
    /** What the flow shows now, so an equal line handed in again costs nothing. */
    private StyledLine shown;
    private RuleHighlights shownRules;
    private String shownQuery;
    private String shownStamp;
    private boolean shownRegex;
    private final BooleanProperty regex;

    TailLineCell(ListView<StyledLine> list, StringProperty query, BooleanProperty regex, BooleanProperty wrap,
                 ObjectProperty<RuleHighlights> highlights, ObjectProperty<LineTimes> times) {
        this.times = times;
        this.query = query;
        this.regex = regex;
        this.highlights = highlights;
        this.wrap = wrap;
        getStyleClass().add("tail-line");
        flow.getStyleClass().add("tail-flow");
        rerender = o -> render(getItem());
        resize = o -> applyWidth(list);
        // Weak: the list may drop cells (on resize); the shared properties must not keep them alive.
        query.addListener(new WeakInvalidationListener(rerender));
        regex.addListener(new WeakInvalidationListener(rerender));
        highlights.addListener(new WeakInvalidationListener(rerender));
        times.addListener(new WeakInvalidationListener(rerender));
        wrap.addListener(new WeakInvalidationListener(rerender));
        wrap.addListener(new WeakInvalidationListener(resize));
        list.widthProperty().addListener(new WeakInvalidationListener(resize));
        applyWidth(list);
    }

    private void applyWidth(ListView<StyledLine> list) {
        if (!wrap.get() && flow.getPrefWidth() == USE_COMPUTED_SIZE) {
            return; // unwrapped lines take their natural width; nothing to follow
        }
        double width = wrap.get() ? Math.max(50, list.getWidth() - 32) : USE_COMPUTED_SIZE;
        flow.setPrefWidth(width);
        flow.setMaxWidth(wrap.get() ? width : Double.MAX_VALUE);
        setPrefWidth(wrap.get() ? width : USE_COMPUTED_SIZE);
    }

    @Override
    protected void updateItem(StyledLine line, boolean empty) {
        super.updateItem(line, empty);
        setText(null);
        render(empty ? null : line);
    }

    private void render(StyledLine line) {
        if (line == null || isEmpty()) {
            // The flow stays the graphic, hidden: taking it out of the scene and back would restyle it.
            shown = null;
            flow.setVisible(false);
            pseudoClassStateChanged(MATCH, false);
            pseudoClassStateChanged(RULE_HIGHLIGHT, false);
            return;
        }
        flow.setVisible(true);
        RuleHighlights rules = highlights.get();
        LineTimes t = times.get();
        String stamp = t == null || getListView() == null ? null : t.stamp(getIndex(), getListView().getItems().size());
        // Following a flood, the list hands cells lines they already show (or equal ones): nothing to do.
        if (line.equals(shown) && rules == shownRules && Objects.equals(query.get(), shownQuery) && getGraphic() == flow
                && shownRegex == regex.get() && Objects.equals(stamp, shownStamp)) {
            return;
        }
        shown = line;
        shownRules = rules;
        shownQuery = query.get();
        shownStamp = stamp;
        shownRegex = regex.get();
        pseudoClassStateChanged(RULE_HIGHLIGHT, rules != null && rules.matches(line.plain()));
        List<int[]> matches = matches(line.plain(), query.get(), regex.get());
        pseudoClassStateChanged(MATCH, !matches.isEmpty());
        List<Text> runs = new ArrayList<>();
        int offset = 0;
        for (StyledLine.Span span : line.spans()) {
            StyledRun.addRuns(runs, span, offset, matches, -1);
            offset += span.text().length();
        }
        if (runs.isEmpty()) {
            runs.add(StyledRun.of(" ", SgrStyle.PLAIN)); // keeps an empty line one line high
        }
        if (stamp != null) {
            Text gutter = StyledRun.of(stamp, SgrStyle.PLAIN);
            gutter.getStyleClass().add("line-time");
            runs.add(0, gutter);
        }
        flow.show(runs);
        setGraphic(flow);
    }

    static List<int[]> matches(String plain, String query, boolean regex) {
        return regex ? FindMatches.ofRegex(plain, query) : matches(plain, query);
    }

    static List<int[]> matches(String plain, String query) {
        List<int[]> found = new ArrayList<>();
        if (query == null || query.isEmpty()) {
            return found;
        }
        String hay = plain.toLowerCase(Locale.ROOT);
        String needle = query.toLowerCase(Locale.ROOT);
        int i = hay.indexOf(needle);
        while (i >= 0) {
            found.add(new int[] {i, i + needle.length()});
            i = hay.indexOf(needle, i + needle.length());
        }
        return found;
    }
}
