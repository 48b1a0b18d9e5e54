package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.stack.Orchestrator;
import dev.runboard.workspace.Workspace;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * {@code up}: starts a workspace file's commands ({@code names}, or all), then with {@code wait} ({@code await}, {@code --wait}:
 * ready or settled, {@code settle_ms}) or {@code until_ended} waits, and answers with each command's latest
 * run as it stands then (its status and reason: a restart or a skip after the start is what the person needs to
 * see), the failures, and the {@code disabled} commands that got no session. {@code abort_on_failure} stops the
 * stack at the first failure (and waits as {@code until_ended} when no wait was asked); {@code force} runs a named
 * command that succeeded again, {@code restart_running} stops and starts one that runs, {@code no_deps} starts
 * only the named ones.
 */
@JsonTypeName("up")
public record UpRequest(String file, List<String> names, @JsonProperty("wait") boolean await, boolean untilEnded, Long settleMs,
                        boolean force, boolean noDeps, boolean abortOnFailure, boolean restartRunning,
                        Map<String, String> environment)
        implements Request<UpRequest.Reply> {
    /**
     * Each command's latest run as it stands once up is done, and the {@code disabled} commands that got no session;
     * when up waited, the commands that failed and whether the stack was stopped for it ({@code abort_on_failure}),
     * else null.
     */
    public record Reply(List<String> failed, Boolean aborted, List<Run> sessions, List<String> disabled)
            implements Protocol.Reply {
    }

    /** A command's run: its session and status, and why it waits or was skipped (null: it neither waits nor was skipped). */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public record Run(String name, String id, SessionStatus status, String reason) {
        static Run of(Session s) {
            String reason = s.status().isWaiting() ? s.waitingReason()
                    : s.status() == SessionStatus.SKIPPED ? s.snapshot().reason() : null;
            return new Run(s.stack().name(), s.id(), s.status(), reason);
        }
    }
    /** How long {@code up --wait} waits at most for every command to be ready or over. */
    private static final Duration WAIT_LIMIT = Duration.ofHours(24);

    @Override
    public Reply answer(Served served) throws Exception {
        Path path = StackRequests.file(file);
        Workspace ws = StackRequests.load(path);
        List<String> named = names == null ? List.of() : names;
        Orchestrator stack = served.stack().orchestrator();
        List<Session> sessions = stack.up(ws, path.toString(), named, environment, force, noDeps, restartRunning);
        Orchestrator.WaitFor waitFor = untilEnded ? Orchestrator.WaitFor.ENDED
                : await ? Orchestrator.WaitFor.READY
                : abortOnFailure ? Orchestrator.WaitFor.ENDED : null;
        List<String> failed = null;
        Boolean aborted = null;
        if (waitFor != null) {
            Duration settle = settleMs != null ? Duration.ofMillis(Math.max(0, settleMs)) : Orchestrator.DEFAULT_SETTLE;
            Orchestrator.Settled settled = stack.await(sessions, WAIT_LIMIT, waitFor, settle, abortOnFailure);
            sessions = settled.sessions();
            failed = List.copyOf(settled.failed());
            aborted = settled.aborted();
        }
        return new Reply(failed, aborted, sessions.stream().map(Run::of).toList(),
                List.copyOf(Orchestrator.disabledAmong(ws, named, noDeps)));
    }
}
