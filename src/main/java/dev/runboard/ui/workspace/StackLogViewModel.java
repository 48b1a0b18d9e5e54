package dev.runboard.ui.workspace;

import dev.runboard.session.AnsiText;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.stack.StackLog;
import dev.runboard.ui.common.UiTasks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javafx.collections.FXCollections;
import javafx.collections.ObservableList;

/**
 * The stack's Logs tab (issue #45): the outputs of every run of the workspace's commands merged in
 * time order ({@link StackLog}, what {@code runboard logs} prints), each line after its command's name
 * in the command's colour, the newest last. The files are read off the FX thread, one batch at a time,
 * and each batch comes back in one hand-off; FX thread only otherwise.
 */
public final class StackLogViewModel {
    /** Lines kept in the tab: the newest; the whole log is {@code runboard logs}. */
    static final int MAX_LINES = 5000;

    /**
     * One line as the tab shows it: its command's name padded to the widest of the file's (and a bar),
     * that command's colour (0 to {@link StackLog#COLOURS} - 1), and the line's text.
     */
    public record Line(String prefix, int colour, String text) {
    }

    private final UiTasks tasks;
    private final ObservableList<Line> lines = FXCollections.observableArrayList();
    private StackLog log;
    private Path file;
    private boolean reading;
    private int width;
    private List<SessionSnapshot> again;

    StackLogViewModel(UiTasks tasks) {
        this.tasks = tasks;
    }

    public ObservableList<Line> lines() {
        return lines;
    }

    /**
     * The sessions changed: reads what the workspace file's runs wrote since the last look. One read at
     * a time; sessions that change meanwhile are read once it is done. {@code workspaceFile} null: no stack.
     */
    void refresh(Path workspaceFile, java.util.Collection<String> names, List<SessionSnapshot> sessions) {
        width = names.stream().mapToInt(String::length).max().orElse(0);
        if (!java.util.Objects.equals(workspaceFile, file)) {
            file = workspaceFile;
            log = workspaceFile == null ? null : new StackLog(workspaceFile, java.util.Set.of(), 0);
            lines.clear();
            again = null;
        }
        if (log == null) {
            return;
        }
        if (reading) {
            again = sessions; // the newest wins: a read covers every line written before it
            return;
        }
        reading = true;
        StackLog reader = log;
        int padTo = width;
        tasks.onFx(tasks.background(() -> read(reader, sessions, padTo)), (batch, error) -> {
            reading = false;
            if (error == null && reader == log) {
                append(batch);
            }
            List<SessionSnapshot> next = again;
            again = null;
            if (next != null) {
                refresh(file, names, next);
            }
        });
    }

    /** Off the FX thread: the new lines, as the tab shows them. */
    private static List<Line> read(StackLog reader, List<SessionSnapshot> sessions, int width) throws java.io.IOException {
        java.util.ArrayDeque<Line> batch = new java.util.ArrayDeque<>();
        reader.drainSettled(sessions, e -> {
            String prefix = e.name() + " ".repeat(Math.max(0, width - e.name().length())) + " | ";
            batch.addLast(new Line(prefix, StackLog.colourOf(e.name()), AnsiText.strip(e.text())));
            if (batch.size() > MAX_LINES) {
                batch.pollFirst(); // only the newest are kept anyway
            }
        });
        return new ArrayList<>(batch);
    }

    private void append(List<Line> batch) {
        if (batch.isEmpty()) {
            return;
        }
        int over = lines.size() + batch.size() - MAX_LINES;
        if (over > 0) {
            lines.remove(0, Math.min(over, lines.size()));
        }
        lines.addAll(batch);
    }
}
