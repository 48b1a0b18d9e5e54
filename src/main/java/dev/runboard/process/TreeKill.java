package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Ends a local session's whole tree the one way there is: its wrapper's kill
 * ({@code runboard-wrap.pl --kill}, docs/PROCESS-TREE.md). That asks the session's wrapper, which
 * holds every process the command started (it is their subreaper), or, when the wrapper is gone,
 * does the same kill without it from the command's group, the session's tag and the processes the
 * owner last saw. Kill mode runs in a fork of the engine's {@link KillServer} (a perl started per kill cost ~10 ms
 * of CPU), or in a perl of its own when that server cannot take it. The deadline, {@code kill}, the window, {@code down}, guards and rules all come here;
 * a remote session's host runs the same words over ssh.
 */
final class TreeKill {
    private final SessionWrapper wrapper;
    private final SessionStore store;
    private final OsProcesses os;
    private final KillServer server;

    TreeKill(SessionWrapper wrapper, SessionStore store, OsProcesses os) {
        this.wrapper = wrapper;
        this.store = store;
        this.os = os;
        this.server = new KillServer(wrapper.killMode());
    }

    /**
     * Runs the kill and returns its report, read back against /proc: its survivors are the session's
     * processes still alive now. {@code held}: what the owner last saw of the session (pid to start time).
     */
    WrapperReport kill(Session session, Signal signal, Duration grace, SessionStatus why, String reason,
                       Map<Long, Long> held) {
        Path status = store.file(session.id(), SessionStore.EXIT_STATUS);
        List<String> argv = wrapper.killCommand(status, session.pid(), session.pidStartTicks(), signal.name(),
                grace.toMillis(), why.word(), session.tag(), held);
        KillServer.Answer answer;
        try {
            try {
                answer = server.kill(argv.subList(wrapper.killMode().size(), argv.size()));
            } catch (KillServer.Gone gone) {
                answer = alone(argv); // the same kill mode, in a perl of its own
            }
        } catch (IOException e) {
            throw new IllegalStateException("could not run the session's kill (" + e.getMessage() + "): the kill is not done", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the session's tree was being killed", e);
        }
        WrapperReport report = WrapperReport.parse(answer.out(), reason, WrappedCommand.groupOf(store, session), os::isAlive);
        if (report == null) {
            throw new IllegalStateException("the session's kill gave no report"
                    + (answer.err().isBlank() ? "" : ": " + answer.err().strip()));
        }
        return report;
    }

    private static KillServer.Answer alone(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        CompletableFuture<String> errors = CompletableFuture.supplyAsync(() -> text(p.getErrorStream()));
        String out = text(p.getInputStream());
        int exit = p.waitFor();
        String err = errors.join();
        return new KillServer.Answer(out, err.isBlank() ? "exit " + exit : err + " (exit " + exit + ")");
    }

    private static String text(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
