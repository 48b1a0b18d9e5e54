package dev.runboard.stack;

import dev.runboard.workspace.Workspace;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Which commands {@code up} starts: the named commands and groups (none: the autostart ones), with their dependencies, dependencies first. */
final class StackSelection {
    private StackSelection() {
    }

    static List<String> withDependencies(Workspace ws, List<String> names) {
        List<String> order = new ArrayList<>();
        for (String r : named(ws, names)) {
            visit(ws, r, order);
        }
        return order;
    }

    /** The named commands and groups' commands (none: the autostart ones), without what they depend on ({@code up --no-deps}). */
    static List<String> named(Workspace ws, List<String> names) {
        Set<String> roots = new LinkedHashSet<>();
        if (names.isEmpty()) {
            ws.commands().forEach((name, c) -> {
                if (c.autostarts()) {
                    roots.add(name);
                }
            });
        }
        for (String n : names) {
            if (ws.commands().containsKey(n)) {
                roots.add(n);
            } else if (ws.groups().containsKey(n) && !n.isEmpty()) {
                roots.addAll(ws.groups().get(n));
            } else {
                throw new IllegalArgumentException(ws.unknownName(n));
            }
        }
        if (roots.isEmpty()) {
            // Starting nothing and saying nothing would look like success to a person who expected a stack.
            throw new IllegalArgumentException(ws.commands().isEmpty() ? ws.file() + " defines no commands: nothing to start"
                    : "nothing to start: no command of " + ws.file() + " has autostart: true (name the ones to start: "
                            + String.join(", ", ws.commands().keySet()) + ")");
        }
        return new ArrayList<>(roots);
    }

    /** Depth first, dependencies before dependants (the file was checked for cycles when it loaded). */
    private static void visit(Workspace ws, String name, List<String> order) {
        if (order.contains(name)) {
            return;
        }
        for (String dep : ws.commands().get(name).dependencies().keySet()) {
            visit(ws, dep, order);
        }
        order.add(name);
    }
}
