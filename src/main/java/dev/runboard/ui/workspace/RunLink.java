package dev.runboard.ui.workspace;

import java.nio.file.Path;

/** Which workspace command a session was started from; the engine knows nothing of workspaces. */
public record RunLink(Path root, String workspaceName, String command) {
    /** The short tag the table shows: {@code shop › web}. */
    public String tag() {
        return workspaceName + " \u203A " + command;
    }
}
