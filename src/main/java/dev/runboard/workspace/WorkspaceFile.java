package dev.runboard.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The content of a {@code runboard.yaml}: an optional display name and the commands by name, in
 * file order. Immutable; the {@code with…} methods return a changed copy for saving.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"name", "include", "environment", "env_file", "commands", "groups"})
public record WorkspaceFile(String name, Map<String, WorkspaceCommand> commands, Map<String, GroupLimit> groups,
                            // issue 45: other workspace files whose commands join this one's (paths relative to this file)
                            List<String> include,
                            // file-wide environment (issue 45): under every command's env_file and env
                            Map<String, String> environment,
                            @com.fasterxml.jackson.annotation.JsonProperty("env_file")
                            @com.fasterxml.jackson.annotation.JsonFormat(with = com.fasterxml.jackson.annotation.JsonFormat.Feature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                            List<String> envFile) {
    public static final WorkspaceFile EMPTY = new WorkspaceFile(null, null);

    public WorkspaceFile(String name, Map<String, WorkspaceCommand> commands) {
        this(name, commands, null, null);
    }

    /** A file without a file-wide environment or env_file. */
    public WorkspaceFile(String name, Map<String, WorkspaceCommand> commands, Map<String, GroupLimit> groups, List<String> include) {
        this(name, commands, groups, include, null, null);
    }

    /** The file-wide environment; empty when none. */
    public Map<String, String> environmentOrEmpty() {
        return environment == null ? Map.of() : environment;
    }

    /** The file-wide env files, as written (relative to the file's folder); empty when none. */
    public List<String> envFiles() {
        return envFile == null ? List.of() : envFile;
    }

    public WorkspaceFile(String name, Map<String, WorkspaceCommand> commands, Map<String, GroupLimit> groups) {
        this(name, commands, groups, null);
    }

    public WorkspaceFile {
        Map<String, WorkspaceCommand> copy = new LinkedHashMap<>();
        if (commands != null) {
            for (Map.Entry<String, WorkspaceCommand> e : commands.entrySet()) {
                if (e.getKey() == null || e.getKey().isBlank()) {
                    throw new IllegalArgumentException("a command has an empty name");
                }
                if (e.getValue() == null) {
                    throw new IllegalArgumentException("command '" + e.getKey() + "' is empty: give it 'command' or 'argv'");
                }
                copy.put(e.getKey(), e.getValue());
            }
        }
        commands = Collections.unmodifiableMap(copy);
        name = name == null || name.isBlank() ? null : name;
        groups = groups == null || groups.isEmpty() ? null : Collections.unmodifiableMap(new LinkedHashMap<>(groups));
        if (include != null) {
            for (String path : include) {
                if (path == null || path.isBlank() || path.indexOf('\0') >= 0) {
                    throw new KeyedProblem("'include' holds an empty path: give the files to include, relative to this one",
                            "include");
                }
            }
            include = include.isEmpty() ? null : List.copyOf(include);
        }
        environment = WorkspaceCommand.checkedEnv(environment, "environment");
        envFile = WorkspaceCommand.checkedEnvFiles(envFile);
    }

    /** The group's parallel limit, or 0 when it has none. */
    public int parallelOf(String group) {
        GroupLimit limit = groups == null || group == null ? null : groups.get(group);
        return limit == null ? 0 : limit.parallel();
    }

    /** Adds or replaces a command, keeping the position of a replaced one. */
    public WorkspaceFile with(String commandName, WorkspaceCommand command) {
        Map<String, WorkspaceCommand> copy = new LinkedHashMap<>(commands);
        copy.put(commandName, command);
        return new WorkspaceFile(name, copy, groups, include, environment, envFile);
    }

    public WorkspaceFile without(String commandName) {
        Map<String, WorkspaceCommand> copy = new LinkedHashMap<>(commands);
        copy.remove(commandName);
        return new WorkspaceFile(name, copy, groups, include, environment, envFile);
    }

    /** {@code base} if free, else {@code base-2}, {@code base-3}… */
    public String freeName(String base) {
        if (!commands.containsKey(base)) {
            return base;
        }
        for (int i = 2; ; i++) {
            if (!commands.containsKey(base + "-" + i)) {
                return base + "-" + i;
            }
        }
    }
}
