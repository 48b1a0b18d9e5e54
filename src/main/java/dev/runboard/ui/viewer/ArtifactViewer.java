package dev.runboard.ui.viewer;

import dev.runboard.artifact.ByteSource;
import dev.runboard.ui.common.DesktopBridge;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.ansi.RuleHighlights;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.function.BiFunction;
import java.util.function.BooleanSupplier;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

/** Opens full outputs (artifacts, captures, any file) in a read-only in-app window. */
public final class ArtifactViewer {
    private final Theme theme;
    private final DesktopBridge desktop;
    private final UiTasks tasks;
    /** A remote session's output on its host (host, session id), or null when this window reaches no host. */
    private BiFunction<String, String, ByteSource> remoteOutputs;

    public ArtifactViewer(Theme theme, DesktopBridge desktop, UiTasks tasks) {
        this.theme = theme;
        this.desktop = desktop;
        this.tasks = tasks;
    }

    /** How a remote session's output is read from its host; the composition root gives it. */
    public ArtifactViewer withRemoteOutputs(BiFunction<String, String, ByteSource> outputs) {
        this.remoteOutputs = outputs;
        return this;
    }

    /**
     * A session's capture. One still running on another host is paged from there past what its
     * mirror holds (a finished one's mirror is whole, and its folder there is gone).
     */
    public Stage openCapture(Window owner, String host, String sessionId, boolean running, Path capture,
                             RuleHighlights rules) {
        if (host != null && running && remoteOutputs != null) {
            return openRemote(owner, capture, remoteOutputs.apply(host, sessionId), () -> false, rules);
        }
        return open(owner, capture, () -> false, null, rules);
    }

    /** A finished file (an artifact, a kept capture). */
    public Stage open(Window owner, Path file) {
        return open(owner, file, () -> false);
    }

    /**
     * A file that may still grow while {@code stillWritten} says so (a running session's capture):
     * the index keeps up with it and the viewer starts in follow mode.
     */
    public Stage open(Window owner, Path file, BooleanSupplier stillWritten) {
        return open(owner, file, stillWritten, null);
    }

    /** As above, and starts a search for {@code find} (a regex) when it is not blank. */
    public Stage open(Window owner, Path file, BooleanSupplier stillWritten, String find) {
        return open(owner, file, stillWritten, find, RuleHighlights.NONE);
    }

    /** As above, marking the lines that match the session's HIGHLIGHT rules. */
    public Stage open(Window owner, Path file, BooleanSupplier stillWritten, String find, RuleHighlights rules) {
        return open(owner, file, stillWritten, find, rules, -1, null);
    }

    /** A file opened at the line holding byte {@code offset}, that line selected (a result of "Search all runs"). */
    public Stage openAt(Window owner, Path file, long offset) {
        return open(owner, file, () -> false, null, RuleHighlights.NONE, offset, null);
    }

    /**
     * A remote session's output, paged from its host by byte ranges past what its local {@code
     * mirror} holds (the end shows without bringing the whole output here); Download saves it whole.
     */
    public Stage openRemote(Window owner, Path mirror, ByteSource remote, BooleanSupplier stillWritten, RuleHighlights rules) {
        return open(owner, mirror, stillWritten, null, rules, -1, remote);
    }

    private Stage open(Window owner, Path file, BooleanSupplier stillWritten, String find, RuleHighlights rules, long at,
                       ByteSource remote) {
        FXMLLoader loader = new FXMLLoader(ArtifactViewer.class.getResource("/dev/runboard/ui/viewer/ArtifactView.fxml"));
        ArtifactViewController controller = new ArtifactViewController(file, desktop, stillWritten, tasks, remote);
        loader.setController(controller);
        Parent root;
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        // The cells read the rules from their list (a hook that leaves the controller's search code alone).
        root.lookup("#viewerList").getProperties().put(ViewerLineCell.RULES_KEY, rules);
        Stage stage = new Stage();
        if (owner != null) {
            stage.initOwner(owner);
        }
        stage.setTitle(file.getFileName() + " \u2014 runboard");
        Scene scene = new Scene(root, 1180, 680);
        theme.register(scene);
        stage.setScene(scene);
        stage.setOnHidden(e -> controller.close());
        // Esc or Ctrl+W closes the viewer; Esc in the find field clears it first.
        dev.runboard.ui.common.CloseKeys.install(stage);
        if (owner instanceof Stage parent) {
            stage.getIcons().setAll(parent.getIcons());
        }
        stage.show();
        controller.load(stillWritten.getAsBoolean());
        if (at >= 0) {
            controller.revealAt(at);
        }
        if (find != null && !find.isBlank()) {
            controller.find(find);
        }
        return stage;
    }
}
