package dev.runboard.workspace;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The load errors of {@code depends_on} that no single command can see: a dependency on a command
 * the file does not have, and a cycle. Each names the key to point at, so the message carries its
 * line and column like every other mistake in the file.
 */
final class DependencyCheck {
    /** What is wrong and the JSON pointer of the key it is about. */
    record Problem(String message, String pointer) {
    }

    private DependencyCheck() {
    }

    static Problem find(WorkspaceFile file) {
        Map<String, WorkspaceCommand> commands = file.commands();
        for (Map.Entry<String, WorkspaceCommand> c : commands.entrySet()) {
            for (String dep : c.getValue().dependencies().keySet()) {
                if (!commands.containsKey(dep)) {
                    return new Problem("'depends_on' of " + c.getKey() + " names '" + dep
                            + "', which is not a command of this file", pointer(c.getKey(), dep));
                }
                if (dep.equals(c.getKey())) {
                    return new Problem("command " + dep + " depends on itself", pointer(c.getKey(), dep));
                }
            }
        }
        Set<String> done = new HashSet<>();
        for (String name : commands.keySet()) {
            List<String> cycle = cycleFrom(name, commands, new ArrayList<>(), done);
            if (cycle != null) {
                String first = cycle.get(0);
                return new Problem("'depends_on' forms a cycle: " + String.join(" → ", cycle),
                        pointer(first, cycle.get(1)));
            }
        }
        return null;
    }

    /** Depth first; the path so far is {@code path}; returns the cycle closing on itself, or null. */
    private static List<String> cycleFrom(String name, Map<String, WorkspaceCommand> commands, List<String> path, Set<String> done) {
        int at = path.indexOf(name);
        if (at >= 0) {
            List<String> cycle = new ArrayList<>(path.subList(at, path.size()));
            cycle.add(name);
            return cycle;
        }
        if (done.contains(name)) {
            return null;
        }
        path.add(name);
        for (String dep : commands.get(name).dependencies().keySet()) {
            List<String> cycle = cycleFrom(dep, commands, path, done);
            if (cycle != null) {
                return cycle;
            }
        }
        path.remove(path.size() - 1);
        done.add(name);
        return null;
    }

    private static String pointer(String command, String dep) {
        return "/commands/" + escape(command) + "/depends_on/" + escape(dep);
    }

    private static String escape(String key) {
        return key.replace("~", "~0").replace("/", "~1");
    }
}
