package dev.runboard.workspace;

import java.util.List;

/**
 * A command a project already declares somewhere else, offered for import.
 *
 * @param source  the file it came from, as shown to people ({@code Procfile}, {@code package.json}…)
 * @param name    the name it has there (script, target, process type)
 * @param dropped what the import could not keep of it, one phrase each with why (empty: nothing)
 */
public record DiscoveredCommand(String source, String name, WorkspaceCommand command, List<String> dropped) {
    public DiscoveredCommand {
        dropped = dropped == null ? List.of() : List.copyOf(dropped);
    }

    public DiscoveredCommand(String source, String name, WorkspaceCommand command) {
        this(source, name, command, List.of());
    }
}
