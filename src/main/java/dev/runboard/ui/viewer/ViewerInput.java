package dev.runboard.ui.viewer;

import java.util.function.IntConsumer;
import java.util.function.IntSupplier;
import javafx.scene.control.ListView;
import javafx.scene.input.KeyCode;
import javafx.scene.input.KeyEvent;
import javafx.scene.input.ScrollEvent;

/**
 * The viewer's wheel and keys: the list holds one page, so moving past its edges (arrows at the
 * first or last row, Page Up/Down, the wheel) asks the controller for another page.
 */
final class ViewerInput {
    private final ListView<?> list;
    private final double rowHeight;
    private final IntConsumer scroll;
    private final Runnable top;
    private final Runnable end;
    private final Runnable copy;
    private final IntSupplier rows;

    ViewerInput(ListView<?> list, double rowHeight, IntConsumer scroll, Runnable top, Runnable end, Runnable copy,
                IntSupplier rows) {
        this.list = list;
        this.rowHeight = rowHeight;
        this.scroll = scroll;
        this.top = top;
        this.end = end;
        this.copy = copy;
        this.rows = rows;
        list.addEventFilter(ScrollEvent.SCROLL, this::onWheel);
        list.addEventFilter(KeyEvent.KEY_PRESSED, this::onKey);
    }

    private void onWheel(ScrollEvent e) {
        if (Math.abs(e.getDeltaY()) <= Math.abs(e.getDeltaX())) {
            return; // sideways: the list scrolls long lines itself
        }
        int lines = (int) Math.max(1, Math.round(Math.abs(e.getDeltaY()) / rowHeight));
        scroll.accept(e.getDeltaY() > 0 ? -lines : lines);
        e.consume();
    }

    private void onKey(KeyEvent e) {
        int sel = list.getSelectionModel().getSelectedIndex();
        int last = list.getItems().size() - 1;
        int page = Math.max(1, rows.getAsInt() - 1);
        KeyCode k = e.getCode();
        if (k == KeyCode.PAGE_DOWN) {
            scroll.accept(page);
        } else if (k == KeyCode.PAGE_UP) {
            scroll.accept(-page);
        } else if (k == KeyCode.DOWN && sel == last) {
            scroll.accept(1);
        } else if (k == KeyCode.UP && sel == 0) {
            scroll.accept(-1);
        } else if (k == KeyCode.HOME && e.isShortcutDown()) {
            top.run();
        } else if (k == KeyCode.END && e.isShortcutDown()) {
            end.run();
        } else if (k == KeyCode.C && e.isShortcutDown()) {
            copy.run();
        } else {
            return;
        }
        e.consume();
    }
}
