package dev.runboard.workspace;

/**
 * A command a project already declares somewhere else, offered for import.
 *
 * @param source the file it came from, as shown to people ({@code Procfile}, {@code package.json}…)
 * @param name   the name it has there (script, target, process type)
 */
public record DiscoveredCommand(String source, String name, WorkspaceCommand command) {
}
