package dev.runboard.cli;

import dev.runboard.engine.RawProcess;
import dev.runboard.session.RawPaths;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Whom a command runs for: the environment, folder and terminal of the person who typed it. In its
 * own JVM that is this process's; in the supervisor, which runs the commands of bin/runboard's thin
 * client (docs/PROTOCOL.md), it is the client's, sent with the call. Every command reads these here
 * and nowhere else: a default {@code --cwd}, a relative path, {@code $SHELL}, the data dir's
 * variables, whether stdout is a terminal, its stdin. Values are {@link dev.runboard.session.RawText}: a byte
 * that is not UTF-8 stays that byte.
 *
 * @param environment the client's environment
 * @param folder the client's current folder, as RawText
 * @param terminal whether the client's stdout (and stdin) are a terminal
 * @param relayedInput the client's stdin as the supervisor receives it over the thin client's connection, asked
 *     for on first use (a command that reads no input never touches the client's); null: this JVM's own stdin
 */
public record ClientCall(Map<String, String> environment, String folder, boolean terminal,
                         Supplier<InputStream> relayedInput) {
    private static final ThreadLocal<ClientCall> CURRENT = new ThreadLocal<>();

    public ClientCall {
        environment = Map.copyOf(environment);
    }

    /** A call whose input is this JVM's own stdin (a command typed here, a test's). */
    public ClientCall(Map<String, String> environment, String folder, boolean terminal) {
        this(environment, folder, terminal, null);
    }

    /** This JVM's own: a command typed into it. */
    public static ClientCall ofThisProcess() {
        return new ClientCall(RawProcess.environment(), RawProcess.folder(), System.console() != null);
    }

    /**
     * The call the command on this thread runs for. Picocli makes the commands and their mixins, so
     * the call is the thread's while {@link RunboardCli#run} runs them: one call per thread, the
     * supervisor serving each client on a thread of its own.
     */
    static ClientCall current() {
        ClientCall call = CURRENT.get();
        return call != null ? call : ofThisProcess();
    }

    static <T> T during(ClientCall call, java.util.function.Supplier<T> body) {
        ClientCall before = CURRENT.get();
        CURRENT.set(call);
        try {
            return body.get();
        } finally {
            CURRENT.set(before);
        }
    }

    /** Whether the supervisor runs this call for a thin client, whose stdin comes over the connection. */
    boolean relayed() {
        return relayedInput != null;
    }

    /** The client's stdin: this JVM's, or the thin client's as it relays it. */
    InputStream stdin() {
        return relayedInput != null ? relayedInput.get() : System.in;
    }

    /** The client's folder as a Path (found by its bytes: {@link RawPaths#path}). */
    Path folderPath() {
        return RawPaths.path(folder);
    }

    /** {@code path} as the client meant it: a relative one against the client's folder. */
    Path resolve(Path path) {
        return path.isAbsolute() || path.toString().isEmpty() ? path : folderPath().resolve(path);
    }

    /** The client's {@code $SHELL} when it names one, else /bin/sh (SessionSpec's default, for this client). */
    Path shell() {
        String fromEnv = environment.get("SHELL");
        return Path.of(fromEnv == null || fromEnv.isBlank() ? "/bin/sh" : fromEnv);
    }
}
