package dev.runboard.ui.viewer;

import dev.runboard.artifact.ArtifactFile;
import dev.runboard.artifact.LineIndex;
import dev.runboard.artifact.PageReader;
import dev.runboard.artifact.TimeIndex;
import dev.runboard.session.Sizes;
import java.util.Locale;
import javafx.scene.control.Label;
import javafx.scene.control.ProgressBar;

/** The viewer's status bar: how far the index got, the file's lines and size, what is cut. */
final class ViewerStatus {
    static final String EMPTY = "The output is empty: the command wrote nothing to stdout or stderr. A running command's"
            + " output appears here as it is written.";
    private final Label info;
    private final ProgressBar progress;
    private final Label note;

    ViewerStatus(Label info, ProgressBar progress, Label note) {
        this.info = info;
        this.progress = progress;
        this.note = note;
    }

    /**
     * Says where the index is; for a remote output, how much of it is mirrored here. Returns the
     * notice to show instead of the lines (an empty file), or null.
     */
    String describe(LineIndex index, PageReader reader, PageReader.Page page, TimeIndex times, boolean remote) {
        boolean done = index.done();
        progress.setVisible(!done && !remote);
        progress.setProgress(index.progress());
        // A capture kept to max_output says first how much of its start is gone.
        String size = (index.start() > 0 ? dev.runboard.session.OutputPreview.droppedNotice(index.start()) + " \u00B7 " : "")
                + Sizes.format(index.fileSize());
        note.setText(times != null && times.isEmpty()
                ? "No line times: this output was recorded before runboard kept a time index"
                : "Lines longer than " + Sizes.format(ArtifactFile.LINE_LIMIT) + " are cut (marked \u27F6)");
        if (remote) {
            if (page != null) {
                info.setText(String.format(Locale.ROOT, "%s on its host \u00B7 %s mirrored here (line numbers,"
                        + " search and times reach that far)", Sizes.format(page.fileSize()), size));
            }
        } else if (index.failure() != null) {
            info.setText("Index failed: " + index.failure().getMessage());
        } else if (done && index.fileSize() == 0) {
            info.setText("Empty file");
            return EMPTY;
        } else if (done) {
            info.setText(String.format(Locale.ROOT, "%,d lines \u00B7 %s", reader.totalLines(), size));
        } else {
            info.setText(String.format(Locale.ROOT, "Indexing %d%% \u00B7 %,d lines so far \u00B7 %s",
                    (int) (index.progress() * 100), index.lines(), size));
        }
        return null;
    }
}
