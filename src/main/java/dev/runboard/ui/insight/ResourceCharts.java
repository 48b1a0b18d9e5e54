package dev.runboard.ui.insight;

import dev.runboard.session.ResourcePoint;
import dev.runboard.session.SessionInsight;
import dev.runboard.ui.common.Formats;
import java.util.List;
import java.util.Locale;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.layout.GridPane;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;

/** CPU, memory and output rate over the session's life, its totals, and what the watchdog and rules noticed. */
final class ResourceCharts extends VBox {
    private final Sparkline cpu = new Sparkline("CPU", "sparkline-cpu", InsightFormats::cpu, 5);
    private final Sparkline rss = new Sparkline("Memory (RSS)", "sparkline-rss", v -> Formats.bytes((long) v), 16 << 20);
    private final Sparkline rate = new Sparkline("Output rate", "sparkline-rate", v -> Formats.bytes((long) v) + "/s", 1024);
    private final Label processes = value();
    private final Label cpuTime = value();
    private final Label peak = value();
    private final ListView<String> events = new ListView<>();

    ResourceCharts() {
        getStyleClass().add("resource-charts");
        setSpacing(6);
        GridPane totals = new GridPane();
        totals.getStyleClass().add("resource-totals");
        totals.setHgap(12);
        totals.setVgap(4);
        totals.addRow(0, name("Processes"), processes);
        totals.addRow(1, name("CPU time"), cpuTime);
        totals.addRow(2, name("Peak memory"), peak);
        events.getStyleClass().add("insight-events");
        events.setPlaceholder(new Label("No rule matches, hangs or guard actions."));
        events.setPrefHeight(90);
        VBox.setVgrow(events, Priority.ALWAYS);
        Label eventsTitle = new Label("Watchdog and rules");
        eventsTitle.getStyleClass().add("sparkline-title");
        getChildren().addAll(cpu, rss, rate, totals, eventsTitle, events);
    }

    void show(SessionInsight i) {
        if (i == null) {
            i = SessionInsight.empty("");
        }
        List<ResourcePoint> h = i.history();
        boolean live = i.sampledAt() != null && !i.tree().nodes().isEmpty();
        cpu.show(h.stream().map(ResourcePoint::cpuPercent).toList(), live ? InsightFormats.cpu(i.cpuPercent()) : "",
                h.isEmpty() ? "" : "max " + InsightFormats.cpu(h.stream().mapToDouble(ResourcePoint::cpuPercent).max().orElse(0)));
        rss.show(h.stream().map(p -> (double) p.rssBytes()).toList(), live ? Formats.bytes(i.rssBytes()) : "",
                i.peakRssBytes() > 0 ? "peak " + Formats.bytes(i.peakRssBytes()) : "");
        double lastRate = h.isEmpty() ? 0 : h.get(h.size() - 1).outputBytesPerSecond();
        rate.show(h.stream().map(ResourcePoint::outputBytesPerSecond).toList(),
                live ? Formats.bytes((long) lastRate) + "/s" : "", "");
        processes.setText(live ? i.processCount() + (i.paused() ? " (paused)" : "") : "none running");
        cpuTime.setText(String.format(Locale.ROOT, "%.1f s", i.cpuSeconds()));
        peak.setText(i.peakRssBytes() > 0 ? Formats.bytes(i.peakRssBytes()) : "");
        List<String> lines = i.events().stream().map(e -> Formats.startedAt(e.at()) + "  " + e.message()).toList();
        if (!lines.equals(events.getItems())) {
            events.getItems().setAll(lines);
        }
    }

    private static Label name(String text) {
        Label l = new Label(text);
        l.getStyleClass().add("fact-name");
        return l;
    }

    private static Label value() {
        Label l = new Label();
        l.getStyleClass().add("fact-value");
        return l;
    }
}
