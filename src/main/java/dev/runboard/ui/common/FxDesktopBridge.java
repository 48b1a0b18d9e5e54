package dev.runboard.ui.common;

import java.nio.file.Path;
import javafx.application.HostServices;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;

/** The desktop through JavaFX: HostServices opens files and folders with the system's default app. */
public final class FxDesktopBridge implements DesktopBridge {
    private final HostServices hostServices;

    public FxDesktopBridge(HostServices hostServices) {
        this.hostServices = hostServices;
    }

    @Override
    public void open(Path fileOrFolder) {
        hostServices.showDocument(fileOrFolder.toUri().toString());
    }

    @Override
    public void copy(String text) {
        ClipboardContent content = new ClipboardContent();
        content.putString(text);
        Clipboard.getSystemClipboard().setContent(content);
    }
}
