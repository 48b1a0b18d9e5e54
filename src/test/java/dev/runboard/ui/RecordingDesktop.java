package dev.runboard.ui;

import dev.runboard.ui.common.DesktopBridge;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A desktop that records what the window asked of it, so tests never open real apps. */
public final class RecordingDesktop implements DesktopBridge {
    public final List<Path> opened = new CopyOnWriteArrayList<>();
    public final List<String> copied = new CopyOnWriteArrayList<>();

    @Override
    public void open(Path fileOrFolder) {
        opened.add(fileOrFolder);
    }

    @Override
    public void copy(String text) {
        copied.add(text);
    }
}
