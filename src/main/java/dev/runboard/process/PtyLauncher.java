package dev.runboard.process;

import dev.runboard.session.SessionSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Starts a session's command in a pseudo-terminal, so programs see a terminal: they colour their
 * output and flush line by line. The terminal's master is held outside this JVM by util-linux
 * {@code script} ({@link ScriptPty}), which copies it into the capture file: a crash of the
 * supervisor neither hangs the command up nor loses its later output. Where util-linux script is
 * missing, the master is held in this JVM with pty4j ({@link JvmPty}) and the limitation is
 * reported once. Either way the command runs under the session wrapper, leads its own session and
 * group (its pid is the session's pid) and carries the env tag, so tree kill works as in plain mode.
 */
final class PtyLauncher {
    static final int COLUMNS = 120;
    static final int ROWS = 40;
    /**
     * Sets the window size in the child, before the command is exec'd: a size set from outside after
     * the fork races a quick program (and {@code script} copies no size when its stdin is no terminal).
     */
    static final String STTY = "stty cols " + COLUMNS + " rows " + ROWS + " 2>/dev/null";
    /**
     * Marks the terminal's holder ({@code script}) with the session's id, so an engine that adopts the
     * session after a crash can find it and wait for it to write the last output. Not the session's
     * tag: the holder is no process of the command (the sampler and the tree kill leave it alone; it
     * ends by itself once the command's leader has ended), and the command does not inherit the mark.
     */
    static final String HOLDER_VAR = "RUNBOARD_PTY_HOLDER";
    static final String NO_SCRIPT = "util-linux script was not found on PATH: PTY sessions hold their terminal inside"
            + " runboard, so if runboard dies they are hung up and their later output is lost."
            + " Install util-linux (it provides script) to fix this.";

    private final OsProcesses os;
    private final SessionLauncher plain;
    private final Consumer<String> warn;
    private final Supplier<Optional<Path>> findScript;
    private final AtomicBoolean warned = new AtomicBoolean();
    private volatile Optional<Path> script;

    /** @param plain the plain launcher, for its exit-status wrapper (so PTY sessions survive a runboard crash too) */
    PtyLauncher(OsProcesses os, SessionLauncher plain, Consumer<String> warn) {
        this(os, plain, warn, ScriptPty::find);
    }

    /** @param findScript finds util-linux script (asked once, at the first PTY launch); empty: use pty4j */
    PtyLauncher(OsProcesses os, SessionLauncher plain, Consumer<String> warn, Supplier<Optional<Path>> findScript) {
        this.os = os;
        this.plain = plain;
        this.warn = warn;
        this.findScript = findScript;
    }

    Process launch(SessionSpec spec, Map<String, String> baseEnv, String tag, Path capture, Path exitStatusFile)
            throws IOException {
        List<String> command = new ArrayList<>(plain.requiredWrapperPrefix(spec, exitStatusFile));
        command.addAll(plain.commandArgv(spec));
        Map<String, String> env = new HashMap<>(baseEnv != null ? baseEnv : System.getenv());
        env.put("TERM", "xterm-256color");
        env.put("COLUMNS", Integer.toString(COLUMNS));
        env.put("LINES", Integer.toString(ROWS));
        env.putAll(spec.env());
        int eq = tag.indexOf('=');
        String tagName = tag.substring(0, eq);
        env.put(tagName, tag.substring(eq + 1));
        Path cwd = RawLaunch.separate(env, spec.cwd(), capture.getParent());
        Optional<Path> holder = script();
        if (holder.isPresent()) {
            return ScriptPty.launch(os, holder.get(), command, env, tagName, cwd, capture);
        }
        if (warned.compareAndSet(false, true)) {
            warn.accept(NO_SCRIPT);
        }
        return JvmPty.launch(os, command, env, cwd, capture);
    }

    /** Whether PTY sessions hold their terminal outside this JVM (asks for script once). */
    boolean holdsTerminalOutside() {
        return script().isPresent();
    }

    private Optional<Path> script() {
        Optional<Path> s = script;
        if (s == null) {
            s = findScript.get();
            script = s;
        }
        return s;
    }
}
