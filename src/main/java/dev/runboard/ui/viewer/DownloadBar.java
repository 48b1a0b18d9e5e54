package dev.runboard.ui.viewer;

import dev.runboard.artifact.ByteSource;
import dev.runboard.session.Sizes;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;

/** The viewer's Download in the status bar: its progress, Cancel, and how it ended. */
final class DownloadBar {
    private final Label text;
    private final ProgressBar progress;
    private final Button cancel;

    DownloadBar(Label text, ProgressBar progress, Button cancel) {
        this.text = text;
        this.progress = progress;
        this.cancel = cancel;
        showing(false);
        text.setVisible(false);
    }

    /** Starts saving the output that {@code open} reads as {@code target}, on a thread of its own. */
    Download start(Callable<ByteSource> open, Path target) {
        Download d = new Download(open, target);
        progress.progressProperty().bind(d.progressProperty());
        cancel.setOnAction(e -> d.cancel());
        text.setVisible(true);
        text.setText("Downloading to " + target.getFileName() + "\u2026");
        showing(true);
        d.setOnSucceeded(e -> done("Downloaded " + Sizes.format(d.getValue()) + " as " + target));
        d.setOnFailed(e -> done("Could not download: " + d.getException().getMessage()));
        d.setOnCancelled(e -> done("Download cancelled; nothing was saved as " + target));
        Thread t = new Thread(d, "runboard-viewer-download");
        t.setDaemon(true);
        t.start();
        return d;
    }

    private void done(String message) {
        progress.progressProperty().unbind();
        showing(false);
        text.setText(message);
    }

    private void showing(boolean on) {
        progress.setVisible(on);
        progress.setManaged(on);
        cancel.setVisible(on);
        cancel.setManaged(on);
    }
}
