package dev.runboard.ui.viewer;

import dev.runboard.ui.DesktopBridge;
import dev.runboard.ui.Formats;
import dev.runboard.ui.Theme;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.scene.Scene;
import javafx.stage.Stage;
import javafx.stage.Window;

/** Opens full outputs (artifacts, kept captures) in a read-only in-app window. */
public final class ArtifactViewer {
    private final Theme theme;
    private final DesktopBridge desktop;

    public ArtifactViewer(Theme theme, DesktopBridge desktop) {
        this.theme = theme;
        this.desktop = desktop;
    }

    public Stage open(Window owner, Path file) {
        FXMLLoader loader = new FXMLLoader(ArtifactViewer.class.getResource("/dev/runboard/ui/viewer/ArtifactView.fxml"));
        ArtifactViewController controller = new ArtifactViewController(file, desktop);
        loader.setController(controller);
        Parent root;
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Stage stage = new Stage();
        stage.initOwner(owner);
        stage.setTitle(file.getFileName() + " \u2014 runboard");
        Scene scene = new Scene(root, 900, 620);
        theme.register(scene);
        stage.setScene(scene);
        stage.setOnHidden(e -> controller.close());
        if (owner instanceof Stage parent) {
            stage.getIcons().setAll(parent.getIcons());
        }
        stage.show();
        controller.load();
        return stage;
    }

    static String describe(FileLines lines) {
        return lines.size() + " lines, " + Formats.bytes(lines.bytes());
    }
}
