package dev.runboard.ui.workspace;

import dev.runboard.session.SessionStatus;
import dev.runboard.workspace.WorkspaceCommand;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.SimpleObjectProperty;

/**
 * One line of the sidebar: a group header or a command with the status of its latest run. The
 * entry of a command survives reloads of the file, so its status does too.
 */
public final class CommandEntry {
    private final String name;
    private final boolean group;
    private final ObjectProperty<WorkspaceCommand> command = new SimpleObjectProperty<>(this, "command");
    private final ObjectProperty<SessionStatus> lastStatus = new SimpleObjectProperty<>(this, "lastStatus");

    private CommandEntry(String name, boolean group, WorkspaceCommand command) {
        this.name = name;
        this.group = group;
        this.command.set(command);
    }

    public static CommandEntry group(String name) {
        return new CommandEntry(name, true, null);
    }

    public static CommandEntry command(String name, WorkspaceCommand command) {
        return new CommandEntry(name, false, command);
    }

    public String name() {
        return name;
    }

    public boolean isGroup() {
        return group;
    }

    public WorkspaceCommand command() {
        return command.get();
    }

    void setCommand(WorkspaceCommand c) {
        command.set(c);
    }

    public ReadOnlyObjectProperty<WorkspaceCommand> commandProperty() {
        return command;
    }

    /** Null until the command has run in this window. */
    public ReadOnlyObjectProperty<SessionStatus> lastStatusProperty() {
        return lastStatus;
    }

    void setLastStatus(SessionStatus s) {
        lastStatus.set(s);
    }

    @Override
    public String toString() {
        return name;
    }
}
