package dev.runboard.ui.insight;

import dev.runboard.ui.sessions.SessionRow;
import java.util.Locale;
import javafx.beans.binding.Bindings;
import javafx.beans.value.ObservableValue;

/** How CPU and memory read in the table and the detail pane. */
public final class InsightFormats {
    private InsightFormats() {
    }

    /** "97 %" (100 % = one core), "0.4 %", or empty when not sampled yet. */
    public static String cpu(Double percent) {
        if (percent == null) {
            return "";
        }
        // Below 9.95 one decimal; from there whole numbers, or 9.96 would read "10.0 %" beside "11 %".
        return percent < 9.95 ? String.format(Locale.ROOT, "%.1f %%", percent) : String.format(Locale.ROOT, "%.0f %%", percent);
    }

    /** The table's CPU cell: the CPU of the whole tree (a paused one says so in its Status cell). */
    public static ObservableValue<String> cpuCell(SessionRow row) {
        return Bindings.createStringBinding(() -> cpu(row.cpuPercentProperty().get()), row.cpuPercentProperty());
    }
}
