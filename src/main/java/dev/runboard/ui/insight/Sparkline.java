package dev.runboard.ui.insight;

import java.util.List;
import java.util.function.DoubleFunction;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Label;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Priority;
import javafx.scene.paint.Color;
import javafx.scene.paint.Paint;
import javafx.scene.shape.Line;

/**
 * A small area chart drawn on a canvas: a title, the current value, and the series over the
 * session's life scaled to its own maximum (at least {@code floor}). The line colour comes from
 * CSS ({@code -fx-stroke} of the hidden {@code .sparkline-stroke} line), so themes can change it.
 */
public final class Sparkline extends BorderPane {
    private final Label title = new Label();
    private final Label value = new Label();
    private final Label peak = new Label();
    private final Canvas canvas = new Canvas();
    private final Line colour = new Line();
    private final DoubleFunction<String> format;
    private final double floor;
    private double[] series = new double[0];

    public Sparkline(String name, String styleClass, DoubleFunction<String> format, double floor) {
        this.format = format;
        this.floor = floor;
        getStyleClass().addAll("sparkline", styleClass);
        title.setText(name);
        title.getStyleClass().add("sparkline-title");
        value.getStyleClass().add("sparkline-value");
        peak.getStyleClass().add("sparkline-peak");
        colour.getStyleClass().add("sparkline-stroke");
        colour.setVisible(false);
        colour.setManaged(false);
        // Redrawn when CSS sets or changes the colour: drawn before CSS came (a Line's stroke starts
        // black) or before a switch to the dark theme, the chart stayed black on black.
        colour.strokeProperty().addListener(o -> draw());
        Pane grow = new Pane();
        HBox.setHgrow(grow, Priority.ALWAYS);
        // Tight: at 1024 px the Resources tab's charts are ~250 px wide, and "Memory (RSS)", "peak 7.4 MiB" and
        // the value must all fit whole (WindowLayoutTest).
        HBox head = new HBox(4, title, grow, peak, value);
        head.getStyleClass().add("sparkline-head");
        setTop(head);
        Pane plot = new Pane(canvas, colour) {
            @Override
            protected void layoutChildren() {
                // Redraw on a new size only: a layout pass of the charts (any label changing) is no reason to.
                if (canvas.getWidth() != getWidth() || canvas.getHeight() != getHeight()) {
                    canvas.setWidth(getWidth());
                    canvas.setHeight(getHeight());
                    draw();
                }
            }
        };
        plot.getStyleClass().add("sparkline-plot");
        plot.setMinHeight(30);
        plot.setPrefHeight(40);
        setCenter(plot);
    }

    public void show(List<Double> points, String current, String peakText) {
        series = points.stream().mapToDouble(Double::doubleValue).toArray();
        value.setText(current);
        peak.setText(peakText);
        draw();
    }

    private void draw() {
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        GraphicsContext g = canvas.getGraphicsContext2D();
        g.clearRect(0, 0, w, h);
        if (w < 2 || h < 2) {
            return;
        }
        Paint stroke = colour.getStroke() == null ? Color.DODGERBLUE : colour.getStroke();
        Color base = stroke instanceof Color c ? c : Color.DODGERBLUE;
        g.setStroke(base.deriveColor(0, 1, 1, 0.18));
        g.setLineWidth(1);
        g.strokeLine(0, h - 0.5, w, h - 0.5);
        if (series.length == 0) {
            return;
        }
        double max = floor;
        for (double v : series) {
            max = Math.max(max, v);
        }
        int n = series.length;
        double step = n == 1 ? 0 : w / (n - 1);
        double pad = 3;
        g.beginPath();
        g.moveTo(0, h);
        for (int i = 0; i < n; i++) {
            g.lineTo(n == 1 ? w : i * step, h - pad - (h - 2 * pad) * series[i] / max);
        }
        g.lineTo(w, h);
        g.closePath();
        g.setFill(base.deriveColor(0, 1, 1, 0.16));
        g.fill();
        g.beginPath();
        for (int i = 0; i < n; i++) {
            double x = n == 1 ? w : i * step;
            double y = h - pad - (h - 2 * pad) * series[i] / max;
            if (i == 0) {
                g.moveTo(x, y);
            } else {
                g.lineTo(x, y);
            }
        }
        g.setStroke(base);
        g.setLineWidth(1.6);
        g.stroke();
        if (n == 1) {
            return;
        }
        g.setFill(base);
        double y = h - pad - (h - 2 * pad) * series[n - 1] / max;
        g.fillOval(w - 3, y - 2.5, 5, 5);
    }

    String formatted(double v) {
        return format.apply(v);
    }
}
