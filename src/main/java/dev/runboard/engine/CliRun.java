package dev.runboard.engine;

/** What a CLI command the supervisor ran for a quick client printed, and its exit code. */
public record CliRun(int exit, String out, String err) {
}
