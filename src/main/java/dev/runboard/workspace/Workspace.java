package dev.runboard.workspace;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.SessionSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A folder opened as a workspace together with the last good content of its workspace file: the
 * folder's {@code runboard.yaml}, or the file {@code up -f FILE} named. Commands run in the folder;
 * messages name {@code file}, the one actually read.
 */
public record Workspace(Path root, Path file, WorkspaceFile content, WorkspaceFile resolved) {
    /** The group of commands that have none. */
    public static final String NO_GROUP = "";

    /**
     * {@code content} is the file as written (what a save writes back); {@code resolved} the same with
     * the commands of the files it includes ({@code include:}), which is what runs.
     */
    public Workspace {
        root = root.toAbsolutePath().normalize();
        file = file.toAbsolutePath().normalize();
        content = content == null ? WorkspaceFile.EMPTY : content;
        resolved = resolved == null ? content : resolved;
    }

    public Workspace(Path root, Path file, WorkspaceFile content) {
        this(root, file, content, null);
    }

    /** The folder's own {@code runboard.yaml}. */
    public Workspace(Path root, WorkspaceFile content) {
        this(root, fileIn(root), content);
    }

    /** Reads {@code runboard.yaml} in {@code root} (missing: an empty workspace), with what it includes. */
    public static Workspace open(Path root) throws WorkspaceException {
        return read(fileIn(root));
    }

    /** Reads a workspace file of any name, with what it includes; its folder is the workspace's (missing: an empty workspace). */
    public static Workspace read(Path file) throws WorkspaceException {
        Path absolute = file.toAbsolutePath().normalize();
        WorkspaceFile own = WorkspaceYaml.read(absolute);
        return new Workspace(absolute.getParent(), absolute, own, IncludedFiles.merge(absolute, own));
    }

    public static Path fileIn(Path root) {
        return root.resolve(WorkspaceYaml.FILE_NAME);
    }

    /**
     * Why {@code name} selects nothing here, naming the file and what it does define, for a person
     * who mistyped a name or ran against the wrong file.
     */
    public String unknownName(String name) {
        if (commands().isEmpty()) {
            return "'" + name + "' is not a command of " + file + ": it defines no commands";
        }
        List<String> named = groups().keySet().stream().filter(g -> !g.equals(NO_GROUP)).toList();
        return "'" + name + "' is neither a command nor a group of " + file + " (commands: " + String.join(", ", commands().keySet())
                + (named.isEmpty() ? "" : "; groups: " + String.join(", ", named)) + ")";
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
        return resolved.commands();
    }

    /** Commands by group in file order; the ungrouped ones under {@link #NO_GROUP}, listed first. */
    public Map<String, List<String>> groups() {
        Map<String, List<String>> groups = new LinkedHashMap<>();
        resolved.commands().forEach((name, c) -> {
            if (c.group() == null) {
                groups.computeIfAbsent(NO_GROUP, k -> new ArrayList<>()).add(name);
            }
        });
        resolved.commands().forEach((name, c) -> {
            if (c.group() != null) {
                groups.computeIfAbsent(c.group(), k -> new ArrayList<>()).add(name);
            }
        });
        return groups;
    }

    public SessionSpec spec(String commandName) {
        WorkspaceCommand c = resolved.commands().get(commandName);
        if (c == null) {
            throw new IllegalArgumentException("no command '" + commandName + "' in " + file());
        }
        SessionSpec spec = c.toSpec(root);
        if (content.environment() == null && content.envFiles().isEmpty() && c.envFiles().isEmpty()) {
            return spec;
        }
        // environment < env_file (the file's, then the command's) < env; --env goes on top where the session starts.
        Map<String, String> env = new LinkedHashMap<>(content.environmentOrEmpty());
        java.util.Set<String> fromFiles = new java.util.TreeSet<>();
        List<String> files = new ArrayList<>(content.envFiles());
        files.addAll(c.envFiles());
        for (String f : files) {
            Map<String, String> vars;
            try {
                vars = EnvFile.read(envFileAt(f));
            } catch (EnvFile.Unusable e) {
                throw new IllegalArgumentException("in " + file.getFileName() + ", env_file " + f + ": " + e.getMessage(), e);
            }
            env.putAll(vars);
            fromFiles.addAll(vars.keySet());
        }
        if (c.env() != null) {
            env.putAll(c.env());
            fromFiles.removeAll(c.env().keySet()); // the command's own value wins, and is not the file's secret
        }
        return spec.toBuilder().env(env).secretEnv(fromFiles).build();
    }

    /** An {@code env_file} path as written: relative to the workspace file's folder. */
    public Path envFileAt(String written) {
        return file.getParent().resolve(written).normalize();
    }

    /**
     * Refuses, before anything starts, a command of this file that cannot start as its spec says (a
     * cwd or shell that does not exist, a bad environment name), naming the command and the place of
     * the key in the file: the value's problem alone ("cwd /srv/app does not exist") said neither.
     */
    public void checkCanStart(String commandName) throws WorkspaceException {
        try {
            spec(commandName).validate();
        } catch (InvalidSpecException e) {
            throw placed(commandName, e);
        } catch (IllegalArgumentException unreadableEnvFile) { // gone or changed since the file was read
            throw WorkspaceYaml.problemAt(file, unreadableEnvFile.getMessage(), "/commands/" + escaped(commandName) + "/env_file",
                    "/env_file", "/commands/" + escaped(commandName));
        }
    }

    private WorkspaceException placed(String commandName, InvalidSpecException e) {
        String command = "/commands/" + escaped(commandName);
        List<String> keys = new ArrayList<>();
        if (e.field().equals("command")) {
            keys.add(command + "/command");
            keys.add(command + "/argv");
        } else {
            keys.add(command + "/" + e.field());
        }
        keys.add(command);
        return WorkspaceYaml.problemAt(file, "in commands." + commandName + ": " + e.getMessage(), keys.toArray(String[]::new));
    }

    private static String escaped(String name) {
        return name.replace("~", "~0").replace("/", "~1");
    }

    public Workspace withContent(WorkspaceFile newContent) {
        return new Workspace(root, file, newContent);
    }
}
