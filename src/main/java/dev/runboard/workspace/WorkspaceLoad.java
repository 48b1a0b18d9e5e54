package dev.runboard.workspace;

import java.nio.file.Path;

/**
 * One reading of a workspace folder: its {@code runboard.yaml} (or why it could not be used) and
 * what discovery found beside it. Immutable, so a watcher thread can hand it to the window.
 *
 * @param content the file's content, null when {@code error} is set
 */
public record WorkspaceLoad(Path root, WorkspaceFile content, WorkspaceException error, CommandDiscovery.Result discovered) {

    /** Reads the folder now (the caller's thread; small files only). */
    public static WorkspaceLoad read(Path root) {
        Path abs = root.toAbsolutePath().normalize();
        CommandDiscovery.Result discovered = CommandDiscovery.scan(abs);
        try {
            return new WorkspaceLoad(abs, WorkspaceYaml.read(Workspace.fileIn(abs)), null, discovered);
        } catch (WorkspaceException e) {
            return new WorkspaceLoad(abs, null, e, discovered);
        }
    }

    public boolean ok() {
        return error == null;
    }
}
