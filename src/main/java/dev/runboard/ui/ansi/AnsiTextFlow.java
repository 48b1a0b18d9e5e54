package dev.runboard.ui.ansi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import javafx.scene.Node;
import javafx.scene.paint.Color;
import javafx.scene.shape.Path;
import javafx.scene.text.Text;
import javafx.scene.text.TextFlow;

/**
 * A line of styled runs ({@link StyledRun}) that also paints the runs' background colours: one
 * unmanaged {@link Path} per run with a background, behind the text, shaped by
 * {@link TextFlow#rangeShape} after each layout so it follows wrapping. Lines without
 * backgrounds have no extra nodes; the paths are made when the runs change, not in layout, so
 * their CSS is applied in the same pulse as the text's.
 */
public final class AnsiTextFlow extends TextFlow {
    /** The background paths, children 0..n-1 (drawn first, so behind the text). */
    private final List<Path> fills = new ArrayList<>();
    /** The run each path paints behind, in the same order. */
    private final List<Text> filled = new ArrayList<>();

    /**
     * Shows {@code runs}, keeping the Text nodes already here when they look the same and only
     * their text differs: a new node needs its CSS applied, and new nodes on every poll made the
     * next pulse restyle (and repaint) the whole window. {@code runs} (a mutable list) is left
     * holding the nodes now shown.
     */
    public void show(List<Text> runs) {
        List<Node> kids = getChildren();
        int base = fills.size();
        int have = kids.size() - base;
        int keep = Math.min(have, runs.size());
        for (int i = 0; i < keep; i++) {
            Text want = runs.get(i);
            if (kids.get(base + i) instanceof Text old && sameLook(old, want)) {
                old.setText(want.getText());
                runs.set(i, old);
            } else {
                kids.set(base + i, want);
            }
        }
        if (runs.size() > keep) {
            kids.addAll(runs.subList(keep, runs.size()));
        } else if (have > keep) {
            kids.subList(base + keep, kids.size()).clear();
        }
        showBackgrounds(runs);
    }

    /** The paths that paint the shown runs' backgrounds (for tests and the benchmark). */
    public List<Path> backgrounds() {
        return List.copyOf(fills);
    }

    private void showBackgrounds(List<Text> runs) {
        List<Text> want = new ArrayList<>();
        List<Object> paints = new ArrayList<>();
        for (Text t : runs) {
            Object bg = t.getProperties().get(StyledRun.BACKGROUND);
            if (bg != null) {
                want.add(t);
                paints.add(bg);
            }
        }
        boolean samePaints = paints.size() == fills.size();
        for (int i = 0; samePaints && i < paints.size(); i++) {
            samePaints = Objects.equals(paints.get(i), fills.get(i).getProperties().get(StyledRun.BACKGROUND));
        }
        filled.clear();
        filled.addAll(want);
        if (!samePaints) {
            getChildren().removeAll(fills);
            fills.clear();
            for (Object paint : paints) {
                fills.add(fill(paint));
            }
            getChildren().addAll(0, fills);
        }
        if (!fills.isEmpty()) {
            requestLayout(); // the shapes follow the text's new layout
        }
    }

    private static Path fill(Object paint) {
        Path p = new Path();
        p.setManaged(false);
        p.setStroke(null);
        p.getStyleClass().add("ansi-bg");
        p.getProperties().put(StyledRun.BACKGROUND, paint);
        if (paint instanceof Color c) {
            p.setFill(c);
        } else {
            p.getStyleClass().add(paint.toString());
        }
        return p;
    }

    @Override
    protected void layoutChildren() {
        super.layoutChildren();
        if (filled.isEmpty()) {
            return;
        }
        // TextFlow counts every managed child: a Text by its characters, any other node as one.
        int offset = 0;
        int k = 0;
        for (Node n : getChildren()) {
            if (!n.isManaged()) {
                continue;
            }
            int length = n instanceof Text t ? t.getText().length() : 1;
            if (k < filled.size() && filled.get(k) == n) {
                fills.get(k).getElements().setAll(rangeShape(offset, offset + length));
                k++;
            }
            offset += length;
        }
    }

    private static boolean sameLook(Text have, Text want) {
        if (!have.getStyleClass().equals(want.getStyleClass()) || have.isUnderline() != want.isUnderline()
                || !Objects.equals(have.getProperties().get(StyledRun.BACKGROUND), want.getProperties().get(StyledRun.BACKGROUND))) {
            return false;
        }
        // Runs without a palette class carry their colour in code (256-colour, true colour).
        boolean paletteColour = want.getStyleClass().stream().anyMatch(c -> c.startsWith("ansi-fg-"));
        return paletteColour || Objects.equals(have.getFill(), want.getFill());
    }
}
