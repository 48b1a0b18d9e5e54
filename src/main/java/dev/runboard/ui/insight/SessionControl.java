package dev.runboard.ui.insight;

import dev.runboard.session.SessionService;
import dev.runboard.session.Signal;
import dev.runboard.ui.common.SerialTasks;
import dev.runboard.ui.common.UiTasks;
import dev.runboard.ui.sessions.SessionRow;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * Steering a running session from the window: signals to the tree or to one process (or its
 * subtree), pause/resume, and stdin. Called on the FX thread; every command runs in the
 * background (a signal is a request to the supervisor; a child that does not read its stdin would
 * block a write on a full pipe) and comes back as one message each. Writes to stdin keep their order.
 */
public final class SessionControl {
    /** The signals the menus offer, in menu order. */
    public static final List<Signal> MENU_SIGNALS =
            List.of(Signal.INT, Signal.TERM, Signal.HUP, Signal.USR1, Signal.USR2, Signal.STOP, Signal.CONT, Signal.KILL);

    private final SessionService engine;
    private final UiTasks tasks;
    private final SerialTasks stdinWrites;
    private final Consumer<String> say;

    public SessionControl(SessionService engine, UiTasks tasks, Consumer<String> say) {
        this.engine = engine;
        this.tasks = tasks;
        this.stdinWrites = new SerialTasks(tasks);
        this.say = say;
    }

    /** One signal to the session's whole group, without escalation (KILL still kills). */
    public void signal(SessionRow row, Signal signal) {
        if (row == null || !row.isRunning()) {
            return;
        }
        String id = row.id();
        String command = row.commandProperty().get();
        tasks.onFx(tasks.background(() -> engine.signal(id, signal)), (sent, error) -> say.accept(
                error != null ? "Cannot send " + signal + ": " + error.getMessage()
                        : sent ? "Sent " + signal + " to " + command : "The session's group is gone"));
    }

    public void pause(SessionRow row, boolean pause) {
        signal(row, pause ? Signal.STOP : Signal.CONT);
    }

    public void signalProcess(SessionRow row, long pid, Signal signal, boolean subtree) {
        if (row == null || !row.isRunning()) {
            return;
        }
        String id = row.id();
        tasks.onFx(tasks.background(() -> engine.signalProcess(id, pid, signal, subtree)), (hit, error) -> say.accept(
                error != null ? "Cannot signal " + pid + ": " + error.getMessage()
                        : "Sent " + signal + " to " + (subtree ? hit.size() + " processes under pid " + pid : "pid " + pid)));
    }

    /** Sends text to the session's stdin, with a newline when {@code newline}. */
    public void send(SessionRow row, String text, boolean newline) {
        if (row == null || !row.isRunning()) {
            return;
        }
        String id = row.id();
        byte[] bytes = (newline ? text + "\n" : text).getBytes(StandardCharsets.UTF_8);
        report(stdinWrites.background(() -> {
            OutputStream in = engine.stdin(id);
            if (in == null) {
                return "The session has ended: its stdin is closed";
            }
            in.write(bytes);
            in.flush();
            return "Sent " + bytes.length + " bytes to stdin";
        }), "stdin is closed (%s)");
    }

    /** Closes stdin: the program reads end-of-file (in a PTY, the terminal's EOF character). */
    public void closeStdin(SessionRow row) {
        if (row == null || !row.isRunning()) {
            return;
        }
        String id = row.id();
        report(stdinWrites.background(() -> {
            OutputStream in = engine.stdin(id);
            if (in != null) {
                in.close();
            }
            return "Closed stdin";
        }), "stdin was already closed (%s)");
    }

    /** One message per user action, on the FX thread. */
    private void report(java.util.concurrent.CompletableFuture<String> result, String failure) {
        tasks.onFx(result, (message, error) -> say.accept(error != null ? String.format(failure, error.getMessage()) : message));
    }
}
