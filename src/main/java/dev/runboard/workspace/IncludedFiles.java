package dev.runboard.workspace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * {@code include: [files]}: the commands (and group limits) of other workspace files join the
 * including file's, each path relative to the file that names it, included files' own includes
 * too. A command's {@code cwd} stays relative to its own file's folder. A name defined in two files
 * is a load error naming both; so is an included file that is missing. The dependencies are checked
 * on the whole, and a problem is placed in the file that has the key.
 */
final class IncludedFiles {
    private IncludedFiles() {
    }

    /** {@code own}, read from {@code file}, with everything it includes; {@code own} itself when it includes nothing. */
    static WorkspaceFile merge(Path file, WorkspaceFile own) throws WorkspaceException {
        if (own.include() == null) {
            return own;
        }
        Path root = file.toAbsolutePath().normalize().getParent();
        Map<String, WorkspaceCommand> commands = new LinkedHashMap<>(own.commands());
        Map<String, Path> definedIn = new LinkedHashMap<>();
        own.commands().keySet().forEach(n -> definedIn.put(n, file));
        Map<String, GroupLimit> groups = new LinkedHashMap<>();
        if (own.groups() != null) {
            groups.putAll(own.groups());
        }
        Set<Path> read = new HashSet<>();
        read.add(file.toAbsolutePath().normalize());
        Deque<Map.Entry<Path, WorkspaceFile>> todo = new ArrayDeque<>();
        todo.add(Map.entry(file.toAbsolutePath().normalize(), own));
        while (!todo.isEmpty()) {
            Map.Entry<Path, WorkspaceFile> next = todo.poll();
            if (next.getValue().include() == null) {
                continue;
            }
            for (String name : next.getValue().include()) {
                Path included = next.getKey().getParent().resolve(name).normalize();
                if (!read.add(included)) {
                    continue; // included twice (or a cycle): its commands are in already
                }
                if (!Files.isRegularFile(included)) {
                    throw WorkspaceYaml.problemAt(next.getKey(), "'include' names " + name + ", which does not exist ("
                            + included + ")", "/include");
                }
                WorkspaceFile content = WorkspaceYaml.read(included);
                for (Map.Entry<String, WorkspaceCommand> c : content.commands().entrySet()) {
                    Path first = definedIn.putIfAbsent(c.getKey(), included);
                    if (first != null) {
                        throw WorkspaceYaml.problemAt(included, "command " + c.getKey() + " is defined twice: in " + first
                                + " and in " + included + " (rename one)", "/commands/" + escape(c.getKey()));
                    }
                    commands.put(c.getKey(), relativeTo(root, included.getParent(), c.getValue()));
                }
                if (content.groups() != null) {
                    content.groups().forEach(groups::putIfAbsent);
                }
                todo.add(Map.entry(included, content));
            }
        }
        WorkspaceFile merged = new WorkspaceFile(own.name(), commands, groups, own.include());
        DependencyCheck.Problem problem = DependencyCheck.find(merged);
        if (problem != null) {
            String command = problem.pointer().split("/")[2].replace("~1", "/").replace("~0", "~");
            throw WorkspaceYaml.problemAt(definedIn.getOrDefault(command, file), problem.message(), problem.pointer());
        }
        return merged;
    }

    /** A command of a file in {@code dir}, its relative cwd made relative to {@code root} (where commands run from). */
    private static WorkspaceCommand relativeTo(Path root, Path dir, WorkspaceCommand c) {
        if (dir.equals(root) || c.cwd() != null && Path.of(c.cwd()).isAbsolute() || c.host() != null) {
            return c;
        }
        String rel = root.relativize(dir.resolve(c.cwd() == null ? "." : c.cwd()).normalize()).toString();
        return c.withCwd(rel.isEmpty() ? null : rel);
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
