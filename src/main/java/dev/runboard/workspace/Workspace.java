package dev.runboard.workspace;

import dev.runboard.session.SessionSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A folder opened as a workspace together with the last good content of its {@code runboard.yaml}. */
public record Workspace(Path root, WorkspaceFile content) {
    /** The group of commands that have none. */
    public static final String NO_GROUP = "";

    public Workspace {
        root = root.toAbsolutePath().normalize();
        content = content == null ? WorkspaceFile.EMPTY : content;
    }

    /** Reads {@code runboard.yaml} in {@code root} (missing: an empty workspace). */
    public static Workspace open(Path root) throws WorkspaceException {
        return new Workspace(root, WorkspaceYaml.read(fileIn(root)));
    }

    public static Path fileIn(Path root) {
        return root.resolve(WorkspaceYaml.FILE_NAME);
    }

    public Path file() {
        return fileIn(root);
    }

    /** The file's {@code name}, else the folder's name. */
    public String displayName() {
        if (content.name() != null) {
            return content.name();
        }
        Path name = root.getFileName();
        return name == null ? root.toString() : name.toString();
    }

    public Map<String, WorkspaceCommand> commands() {
        return content.commands();
    }

    /** Commands by group in file order; the ungrouped ones under {@link #NO_GROUP}, listed first. */
    public Map<String, List<String>> groups() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        content.commands().forEach((name, c) -> {
            if (c.group() == null) {
                groups.computeIfAbsent(NO_GROUP, k -> new ArrayList<>()).add(name);
            }
        });
        content.commands().forEach((name, c) -> {
            if (c.group() != null) {
                groups.computeIfAbsent(c.group(), k -> new ArrayList<>()).add(name);
            }
        });
        return groups;
    }

    public SessionSpec spec(String commandName) {
        WorkspaceCommand c = content.commands().get(commandName);
        if (c == null) {
            throw new IllegalArgumentException("no command '" + commandName + "' in " + file());
        }
        return c.toSpec(root);
    }

    public Workspace withContent(WorkspaceFile newContent) {
        return new Workspace(root, newContent);
    }
}
