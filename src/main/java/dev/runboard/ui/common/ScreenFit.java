package dev.runboard.ui.common;

import javafx.geometry.Rectangle2D;
import javafx.stage.Screen;
import javafx.stage.Window;

/**
 * Dialogs whole and on their screen: {@link #keepOnScreen} keeps one no taller than the screen and moved up when it
 * grew past its bottom; {@link #openWhole} opens one at its content's size under any window manager.
 */
public final class ScreenFit {
    /** Room left for a panel or dock at the screen's edge. */
    private static final double MARGIN = 24;
    /**
     * How much larger than its content a dialog may be before it is made smaller: a preferred size read before
     * the layout settles can be a few pixels short (the quit dialog's once read 6 px short, and shrank under its
     * sentence), and a window too large by that much shows nothing wrong.
     */
    private static final double TOO_LARGE = 24;

    /** The longest a window's size is followed after it showed, however late the window manager answers. */
    private static final java.time.Duration SETTLE_LIMIT = java.time.Duration.ofSeconds(8);

    private ScreenFit() {
    }

    public static void keepOnScreen(Window w) {
        Rectangle2D area = areaOf(w);
        double maxHeight = area.getHeight() - MARGIN;
        if (w.getHeight() > maxHeight) {
            w.setHeight(maxHeight);
        }
        if (w.getY() + w.getHeight() > area.getMaxY()) {
            w.setY(Math.max(area.getMinY(), area.getMaxY() - w.getHeight()));
        }
        if (w.getY() < area.getMinY()) {
            w.setY(area.getMinY());
        }
    }

    /**
     * Opens {@code dialog} at its content's size within the screen, and without disturbing its owner, under
     * any window manager (both seen under openbox, never under headless Monocle):
     * <ul>
     * <li>JavaFX on GTK sized New session from a preferred size not yet laid out: it opened 600x112, only the
     * top of its Command field. Once shown, the window is grown to its content's preferred size (within the
     * screen), then made resizable.
     * <li>A modal dialog disables its owner, which JavaFX's GTK glass does by making it not resizable for the
     * while, and the window manager then un-maximizes a maximized owner (and the window state saved on quit
     * said maximized: false). These dialogs need not block the window, so they are not modal.
     * </ul>
     */
    public static void openWhole(javafx.scene.control.Dialog<?> dialog) {
        boolean resizable = dialog.isResizable();
        dialog.setResizable(false);
        dialog.initModality(javafx.stage.Modality.NONE);
        dialog.addEventHandler(javafx.scene.control.DialogEvent.DIALOG_SHOWN, e -> {
            javafx.scene.Scene scene = dialog.getDialogPane().getScene();
            Runnable stop = settle(scene, dialog.getOwner(), () -> fitToContent(scene), () -> dialog.setResizable(resizable));
            dialog.addEventHandler(javafx.scene.control.DialogEvent.DIALOG_HIDDEN, h -> stop.run());
        });
    }

    /**
     * Opens a window of the app's own (Search all runs, Compare) at {@code width} x {@code height}, or the
     * screen's area where that is smaller, under any window manager: under openbox, Search all runs opened
     * 200x200, its search field in the tool bar's overflow, and without the keyboard. Call before its first show;
     * each show settles it again.
     */
    public static void openWhole(javafx.stage.Stage stage, double width, double height) {
        stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_SHOWN, e -> {
            javafx.scene.Scene scene = stage.getScene();
            Runnable stop = settle(scene, stage.getOwner(), () -> growTo(scene, width, w -> height), () -> { });
            stage.addEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, new javafx.event.EventHandler<>() {
                @Override
                public void handle(javafx.stage.WindowEvent hidden) {
                    stop.run();
                    stage.removeEventHandler(javafx.stage.WindowEvent.WINDOW_HIDDEN, this); // one per show
                }
            });
        });
    }

    /**
     * Fits a window just shown now, and again at each layout pulse and each size change for its first two
     * seconds: wrapped text and scroll panes know their height only after a layout, and the window manager's
     * own idea of the size (600x112 for New session, 200x200 for the first Preferences) can come after ours.
     * A size asked and still not answered when the two seconds end is asked again, and the window followed two
     * seconds more, up to {@link #SETTLE_LIMIT} after it showed: on a loaded machine New session stayed 720x200,
     * most of its form cut, the window manager not having answered in time. Once settled, a person's resizing is
     * theirs. Returns what stops it early (the window hidden); {@code done} runs when it stops.
     */
    private static Runnable settle(javafx.scene.Scene scene, Window owner, Runnable fit, Runnable done) {
        Window w = scene.getWindow();
        Asked asked = new Asked();
        w.getProperties().put(Asked.class, asked);
        fit.run();
        w.requestFocus(); // not modal: ask for the keyboard, which a modal dialog got by itself
        javafx.animation.PauseTransition settled = new javafx.animation.PauseTransition(javafx.util.Duration.seconds(2));
        long giveUpAt = System.nanoTime() + SETTLE_LIMIT.toNanos();
        javafx.beans.InvalidationListener regrow = o -> fit.run();
        Runnable refit = () -> {
            fit.run();
            // The window manager may give the keyboard back to the owner as it maps the window: while the
            // person is still in the owner (not elsewhere), the window asks again.
            if (!w.isFocused() && owner != null && owner.isFocused()) {
                w.requestFocus();
            }
        };
        // The scene has the size asked: the next lack can be measured.
        javafx.beans.InvalidationListener widthArrived = o -> {
            asked.width = Double.NaN;
            fit.run();
        };
        javafx.beans.InvalidationListener heightArrived = o -> {
            asked.height = Double.NaN;
            fit.run();
        };
        scene.addPostLayoutPulseListener(refit);
        w.widthProperty().addListener(regrow);
        w.heightProperty().addListener(regrow);
        scene.widthProperty().addListener(widthArrived);
        scene.heightProperty().addListener(heightArrived);
        boolean[] stopped = new boolean[1];
        Runnable stop = () -> {
            if (!stopped[0]) {
                stopped[0] = true;
                settled.stop();
                scene.removePostLayoutPulseListener(refit);
                w.widthProperty().removeListener(regrow);
                w.heightProperty().removeListener(regrow);
                scene.widthProperty().removeListener(widthArrived);
                scene.heightProperty().removeListener(heightArrived);
                w.getProperties().remove(Asked.class);
                done.run();
            }
        };
        settled.setOnFinished(f -> {
            asked.forgetAnswered(w);
            if (asked.waiting() && System.nanoTime() < giveUpAt) {
                asked.width = Double.NaN; // unanswered: asked again (a window manager may drop a size asked before it mapped)
                asked.height = Double.NaN;
                fit.run();
                settled.playFromStart();
            } else {
                stop.run();
            }
        });
        settled.play();
        return stop;
    }

    private static void fitToContent(javafx.scene.Scene scene) {
        if (scene.getRoot() != null) {
            sizeTo(scene, scene.getRoot().prefWidth(-1), width -> scene.getRoot().prefHeight(width), true);
        }
    }

    private static void growTo(javafx.scene.Scene scene, double wantWidth, java.util.function.DoubleUnaryOperator wantHeightAt) {
        sizeTo(scene, wantWidth, wantHeightAt, false);
    }

    /**
     * Changes the window's size by what its scene lacks (or, with {@code shrink}, has too much) of the size
     * wanted (a dialog's: its root's preferred size), kept within the screen. By the scene's lack, not to a
     * window size: how much of a window's size its frame takes is known only once the window manager has
     * framed it (a size set from a frame measured too early left New session 21 px short). A dialog also
     * shrinks: JavaFX sizes it before its first layout, from a preferred height taken at a narrower width
     * (Preferences opened 250 px taller than its form).
     */
    private static void sizeTo(javafx.scene.Scene scene, double wantWidth, java.util.function.DoubleUnaryOperator wantHeightAt,
                               boolean shrink) {
        Window w = scene.getWindow();
        if (w == null || known(w.getWidth()) == 0 || known(scene.getWidth()) == 0) {
            return; // not shown and laid out yet: asked again at the next pulse or size change
        }
        Asked asked = w.getProperties().get(Asked.class) instanceof Asked a ? a : new Asked();
        asked.forgetAnswered(w);
        Rectangle2D area = areaOf(w);
        double frameWidth = Math.max(0, w.getWidth() - scene.getWidth());
        double frameHeight = Math.max(0, w.getHeight() - scene.getHeight());
        double contentWidth = Math.min(area.getWidth() - MARGIN - frameWidth, wantWidth);
        double lackWidth = contentWidth - scene.getWidth();
        boolean widen = lackWidth > 0.5 || shrink && lackWidth < -TOO_LARGE;
        double width = widen ? w.getWidth() + lackWidth : w.getWidth();
        // The height the content needs at the width it will have; a GridPane asked at a NaN width never returned.
        double contentHeight = Math.min(area.getHeight() - MARGIN - frameHeight,
                wantHeightAt.applyAsDouble(Math.max(1, width - frameWidth)));
        double lackHeight = contentHeight - scene.getHeight();
        // A lack is measured again only once the window manager has answered the size asked before (the scene got
        // it, or the window has another): until then the window's size is the new one and the scene's the old,
        // and the same lack added again at each pulse grew a dialog on to the screen's edge.
        if (widen && Double.isNaN(asked.width)) {
            asked.width = width;
            w.setWidth(width);
        }
        // The height the content needs depends on the width it gets: measured once the scene has that width.
        if ((lackHeight > 0.5 || shrink && lackHeight < -TOO_LARGE) && Double.isNaN(asked.height) && Double.isNaN(asked.width)) {
            asked.height = w.getHeight() + lackHeight;
            w.setHeight(asked.height);
        }
        if (w.getX() + w.getWidth() > area.getMaxX()) {
            w.setX(Math.max(area.getMinX(), area.getMaxX() - w.getWidth()));
        }
        keepOnScreen(w);
    }

    /**
     * The sizes asked of a window that its window manager has not answered yet (NaN: none). Asked again
     * once answered, however often: before it maps a window, a window manager may keep its own size.
     */
    private static final class Asked {
        double width = Double.NaN;
        double height = Double.NaN;

        /** Whether a size asked has not been answered yet. */
        boolean waiting() {
            return !Double.isNaN(width) || !Double.isNaN(height);
        }

        /** An ask is answered when the window has another size than the one asked (the window manager chose). */
        void forgetAnswered(Window w) {
            if (Math.abs(w.getWidth() - width) > 0.5) {
                width = Double.NaN;
            }
            if (Math.abs(w.getHeight() - height) > 0.5) {
                height = Double.NaN;
            }
        }
    }

    /** The visible area of the screen the window is on (the primary one while it is nowhere yet). */
    private static Rectangle2D areaOf(Window w) {
        var screens = Screen.getScreensForRectangle(w.getX(), w.getY(), Math.max(1, w.getWidth()), Math.max(1, w.getHeight()));
        return (screens.isEmpty() ? Screen.getPrimary() : screens.get(0)).getVisualBounds();
    }

    private static double known(double size) {
        return Double.isFinite(size) && size > 0 ? size : 0;
    }
}
