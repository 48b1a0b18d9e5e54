package dev.runboard.engine;

import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * The CLI as the supervisor runs it for bin/runboard's thin client ({@link ThinClientCall}): the
 * command line, run with the CLI's own code for that client, printing to streams that go back to it.
 * The supervisor is below the CLI, so the CLI hands it this.
 */
@FunctionalInterface
public interface ClientCommands {
    /**
     * @param argv the command line after {@code runboard} (RawText words)
     * @param environment the client's environment (RawText values)
     * @param folder the client's current folder (RawText)
     * @param terminal whether the client's stdin and stdout are a terminal
     * @param input the client's stdin, asked of the client when first called ({@link RelayedInput})
     * @return the exit code
     */
    int run(List<String> argv, Map<String, String> environment, String folder, boolean terminal,
            java.util.function.Supplier<java.io.InputStream> input, OutputStream out, OutputStream err);
}
