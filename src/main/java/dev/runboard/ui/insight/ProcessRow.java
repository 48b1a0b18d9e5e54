package dev.runboard.ui.insight;

import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.ui.common.Formats;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;

/**
 * One process of the tree as the table shows it: a fixed pid and live texts, updated in place
 * from each sample. A new sample then repaints only the cells whose text changed; replacing the
 * tree items' values instead made the table rebuild its rows every second. FX thread only.
 */
final class ProcessRow {
    private final long pid;
    private final ReadOnlyObjectWrapper<ProcessTreeSnapshot.Node> node = new ReadOnlyObjectWrapper<>(this, "node");
    private final ReadOnlyStringWrapper state = new ReadOnlyStringWrapper(this, "state");
    private final ReadOnlyStringWrapper cpu = new ReadOnlyStringWrapper(this, "cpu");
    private final ReadOnlyStringWrapper rss = new ReadOnlyStringWrapper(this, "rss");
    private final ReadOnlyStringWrapper command = new ReadOnlyStringWrapper(this, "command");

    ProcessRow(ProcessTreeSnapshot.Node first) {
        this.pid = first.pid();
        apply(first);
    }

    /** Takes a new sample of the same process; equal texts change nothing. */
    void apply(ProcessTreeSnapshot.Node n) {
        if (n.equals(node.get())) {
            return;
        }
        node.set(n);
        state.set(n.stateWord() + (n.escapedGroup() ? " \u00b7 escaped" : ""));
        cpu.set(InsightFormats.cpu(n.cpuPercent()));
        rss.set(Formats.bytes(n.rssBytes()));
        command.set(CommandText.shown(n));
    }

    long pid() {
        return pid;
    }

    ProcessTreeSnapshot.Node node() {
        return node.get();
    }

    ReadOnlyObjectProperty<ProcessTreeSnapshot.Node> nodeProperty() {
        return node.getReadOnlyProperty();
    }

    ReadOnlyStringProperty stateProperty() {
        return state.getReadOnlyProperty();
    }

    ReadOnlyStringProperty cpuProperty() {
        return cpu.getReadOnlyProperty();
    }

    ReadOnlyStringProperty rssProperty() {
        return rss.getReadOnlyProperty();
    }

    ReadOnlyStringProperty commandProperty() {
        return command.getReadOnlyProperty();
    }
}
