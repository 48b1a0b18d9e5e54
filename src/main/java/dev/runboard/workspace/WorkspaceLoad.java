package dev.runboard.workspace;

import java.nio.file.Path;

/**
 * One reading of a workspace folder: its {@code runboard.yaml} (or why it could not be used) and
 * what discovery found beside it. Immutable, so a watcher thread can hand it to the window.
 *
 * @param content the file's content, null when {@code error} is set
 * @param resolved the content with the commands of the files it includes ({@code include:})
 */
public record WorkspaceLoad(Path root, WorkspaceFile content, WorkspaceException error, CommandDiscovery.Result discovered,
                            WorkspaceFile resolved) {

    /** {@code resolved}: the content with what it includes (null: the content itself). */
    public WorkspaceLoad {
        resolved = resolved == null ? content : resolved;
    }

    public WorkspaceLoad(Path root, WorkspaceFile content, WorkspaceException error, CommandDiscovery.Result discovered) {
        this(root, content, error, discovered, null);
    }

    /** Reads the folder now (the caller's thread; small files only), with the files its runboard.yaml includes. */
    public static WorkspaceLoad read(Path root) {
        Path abs = root.toAbsolutePath().normalize();
        CommandDiscovery.Result discovered = CommandDiscovery.scan(abs);
        try {
            Workspace ws = Workspace.read(Workspace.fileIn(abs));
            return new WorkspaceLoad(abs, ws.content(), null, discovered, ws.resolved());
        } catch (WorkspaceException e) {
            return new WorkspaceLoad(abs, null, e, discovered);
        }
    }

    /** The workspace this reading shows: its file as written (what a save writes) and what runs (with its includes). */
    public Workspace workspace() {
        return new Workspace(root, Workspace.fileIn(root), content, resolved);
    }

    public boolean ok() {
        return error == null;
    }
}
