package dev.runboard.ui.insight;

import dev.runboard.process.SessionService;
import dev.runboard.process.Signal;
import dev.runboard.session.Session;
import dev.runboard.ui.sessions.SessionRow;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javafx.application.Platform;

/**
 * Steering a running session from the window: signals to the tree or to one process (or its
 * subtree), pause/resume, and stdin. Writes to stdin go through one worker thread (a child that
 * does not read would otherwise block the FX thread on a full pipe); results come back as one
 * message each.
 */
public final class SessionControl {
    /** The signals the menus offer, in menu order. */
    public static final List<Signal> MENU_SIGNALS =
            List.of(Signal.INT, Signal.TERM, Signal.HUP, Signal.USR1, Signal.USR2, Signal.STOP, Signal.CONT, Signal.KILL);

    private final SessionService engine;
    private final Consumer<String> say;
    private final ExecutorService stdinWriter = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "runboard-stdin");
        t.setDaemon(true);
        return t;
    });

    public SessionControl(SessionService engine, Consumer<String> say) {
        this.engine = engine;
        this.say = say;
    }

    /** One signal to the session's whole group, without escalation (KILL still kills). */
    public void signal(SessionRow row, Signal signal) {
        if (row == null || !row.isRunning()) {
            return;
        }
        boolean sent = engine.signal(row.session(), signal);
        say.accept(sent ? "Sent " + signal + " to " + row.commandProperty().get() : "The session's group is gone");
    }

    public void pause(SessionRow row, boolean pause) {
        signal(row, pause ? Signal.STOP : Signal.CONT);
    }

    public void signalProcess(SessionRow row, long pid, Signal signal, boolean subtree) {
        if (row == null || !row.isRunning()) {
            return;
        }
        try {
            List<Long> hit = engine.signalProcess(row.session(), pid, signal, subtree);
            say.accept("Sent " + signal + " to " + (subtree ? hit.size() + " processes under pid " + pid : "pid " + pid));
        } catch (IllegalArgumentException | IllegalStateException e) {
            say.accept("Cannot signal " + pid + ": " + e.getMessage());
        }
    }

    /** Sends text to the session's stdin, with a newline when {@code newline}. */
    public void send(SessionRow row, String text, boolean newline) {
        if (row == null || !row.isRunning()) {
            return;
        }
        Session session = row.session();
        byte[] bytes = (newline ? text + "\n" : text).getBytes(StandardCharsets.UTF_8);
        stdinWriter.execute(() -> {
            OutputStream in = engine.stdin(session);
            String result;
            try {
                if (in == null) {
                    result = "The session has ended: its stdin is closed";
                } else {
                    in.write(bytes);
                    in.flush();
                    result = "Sent " + bytes.length + " bytes to stdin";
                }
            } catch (IOException e) {
                result = "stdin is closed (" + e.getMessage() + ")";
            }
            report(result);
        });
    }

    /** Closes stdin: the program reads end-of-file (in a PTY, the terminal's EOF character). */
    public void closeStdin(SessionRow row) {
        if (row == null || !row.isRunning()) {
            return;
        }
        Session session = row.session();
        stdinWriter.execute(() -> {
            OutputStream in = engine.stdin(session);
            String result = "Closed stdin";
            try {
                if (in != null) {
                    in.close();
                }
            } catch (IOException e) {
                result = "stdin was already closed";
            }
            report(result);
        });
    }

    private void report(String message) {
        Platform.runLater(() -> say.accept(message)); // one hop per user action
    }

    public void close() {
        stdinWriter.shutdownNow();
    }
}
