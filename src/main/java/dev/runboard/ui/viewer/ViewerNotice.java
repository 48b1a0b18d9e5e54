package dev.runboard.ui.viewer;

import dev.runboard.ui.common.DesktopBridge;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.geometry.Pos;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.scene.layout.VBox;

/** A message in place of the viewer's lines, with a way on: the file's folder, or closing the viewer (Esc). */
final class ViewerNotice {
    private ViewerNotice() {
    }

    /** Why a file did not open, and what can be done (instead of a blank list under a spinning dot). */
    static String openFailed(Path file, java.io.IOException e, boolean gone) {
        return gone
                ? "The output file is gone: " + file + ". It was deleted or moved (Remove and delete artifact,"
                  + " the data dir's retention, or by hand); the detail pane still shows the start and end kept"
                  + " in the session's record."
                : "Cannot read the output file " + file + ": " + e.getMessage();
    }

    static void show(ListView<?> list, String text, Path file, DesktopBridge desktop) {
        if (list.getPlaceholder() != null && "viewerNoticeBox".equals(list.getPlaceholder().getId())) {
            return; // once: the status is described on every tick
        }
        Label label = new Label(text);
        label.setId("viewerNotice");
        label.setWrapText(true);
        label.setMaxWidth(640);
        Button folder = new Button("Open the folder");
        folder.setId("viewerOpenFolder");
        Path parent = file.toAbsolutePath().getParent();
        folder.setDisable(parent == null || !Files.isDirectory(parent));
        folder.setOnAction(e -> desktop.open(parent));
        Label close = new Label("Esc closes the viewer.");
        close.getStyleClass().add("placeholder-label");
        VBox box = new VBox(10, label, folder, close);
        box.setAlignment(Pos.CENTER);
        box.setId("viewerNoticeBox");
        list.setPlaceholder(box);
    }
}
