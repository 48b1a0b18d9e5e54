package dev.runboard.ui.detail;

import dev.runboard.ui.ansi.StyledLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import org.junit.jupiter.api.Test;

/** How the tail pane turns one poll's lines into the next: the list ends equal, touching only what changed. */
class OutputTailUpdateTest {
    @Test
    void aGrowingLastLineReplacesOnlyThatLine() {
        ObservableList<String> shown = FXCollections.observableArrayList("a", "b", "progress 10%");
        List<ListChangeListener.Change<? extends String>> changes = record(shown);
        OutputTail.replaceChanged(shown, List.of("a", "b", "progress 55%"));
        assertEquals(List.of("a", "b", "progress 55%"), shown);
        assertEquals(1, changes.size());
    }

    @Test
    void anyOldAndNewListEndEqual() {
        List<List<String>> cases = List.of(List.of(), List.of("x"), List.of("a", "b", "c"), List.of("b", "c", "d", "e"),
                List.of("a", "c"), List.of("z", "a", "b", "c", "z"), List.of("a", "a", "a"));
        for (List<String> before : cases) {
            for (List<String> after : cases) {
                ObservableList<String> shown = FXCollections.observableArrayList(before);
                OutputTail.replaceChanged(shown, after);
                assertEquals(after, shown, before + " -> " + after);
            }
        }
    }

    @Test
    void theListNeverShrinksBelowItsFinalSizeOnTheWay() {
        List<List<String>> cases = List.of(List.of("a", "b", "c", "d"), List.of("a", "x", "d"), List.of("a", "x", "y", "z", "d"),
                List.of("q"), List.of());
        for (List<String> before : cases) {
            for (List<String> after : cases) {
                ObservableList<String> shown = FXCollections.observableArrayList(before);
                List<Integer> sizes = new ArrayList<>();
                shown.addListener((ListChangeListener<String>) c -> sizes.add(c.getList().size()));
                OutputTail.replaceChanged(shown, after);
                int floor = Math.min(before.size(), after.size());
                assertEquals(true, sizes.stream().allMatch(n -> n >= floor), before + " -> " + after + " went through sizes " + sizes);
            }
        }
    }

    @Test
    void reParsingWithTheCacheGivesTheSameLinesAndReusesUnchangedOnes() {
        String first = "\u001B[31mred starts\nstill red\u001B[0m\nplain\n";
        String second = first + "\u001B[1mbold\u001B[0m new\n";
        ParsedLines cache = new ParsedLines();
        List<StyledLine> a = OutputTailLines.parse(first, cache);
        List<StyledLine> b = OutputTailLines.parse(second, cache);
        assertEquals(OutputTailLines.parse(second), b, "same lines as a parse without the cache");
        for (int i = 0; i < a.size(); i++) {
            assertSame(a.get(i), b.get(i), "line " + i + " was not parsed again");
        }
        // The same raw text in another starting colour is a different line.
        List<StyledLine> c = OutputTailLines.parse("\u001B[32mgreen\nstill red\n", cache);
        assertEquals(2, c.get(1).spans().get(0).style().fgIndex(), "colour carried from the line before, not from the cache");
    }

    private static <T> List<ListChangeListener.Change<? extends T>> record(ObservableList<T> list) {
        List<ListChangeListener.Change<? extends T>> changes = new ArrayList<>();
        list.addListener((ListChangeListener<T>) changes::add);
        return changes;
    }
}
