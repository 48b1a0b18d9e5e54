package dev.runboard.ui.common;

import java.nio.file.Path;

/** What the window asks of the desktop: open a file or folder with the system's app, put text on the clipboard. */
public interface DesktopBridge {
    void open(Path fileOrFolder);

    void copy(String text);
}
