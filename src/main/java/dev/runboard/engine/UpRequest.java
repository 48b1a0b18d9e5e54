package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
record UpRequest(String file, List<String> names, @JsonProperty("wait") boolean await, boolean untilEnded, Long settleMs, boolean force,
                 boolean noDeps, boolean abortOnFailure, boolean restartRunning, Map<String, String> environment)
        implements Request {
    /** How long {@code up --wait} waits at most for every command to be ready or over. */
    private static final Duration WAIT_LIMIT = Duration.ofHours(24);

    @Override
    public ObjectNode answer(Served served) throws Exception {
        Path path = StackRequests.file(file);
        Workspace ws = StackRequests.load(path);
        List<String> named = names == null ? List.of() : names;
        Orchestrator stack = served.stack().orchestrator();
        List<Session> sessions = stack.up(ws, path.toString(), named, environment, force, noDeps, restartRunning);
        Orchestrator.WaitFor waitFor = untilEnded ? Orchestrator.WaitFor.ENDED
                : await ? Orchestrator.WaitFor.READY
                : abortOnFailure ? Orchestrator.WaitFor.ENDED : null;
        ObjectNode reply = Protocol.ok();
        if (waitFor != null) {
            Duration settle = settleMs != null ? Duration.ofMillis(Math.max(0, settleMs)) : Orchestrator.DEFAULT_SETTLE;
            Orchestrator.Settled settled = stack.await(sessions, WAIT_LIMIT, waitFor, settle, abortOnFailure);
            sessions = settled.sessions();
            ArrayNode failed = reply.putArray("failed");
            settled.failed().forEach(failed::add);
            reply.put("aborted", settled.aborted());
        }
        ArrayNode list = reply.putArray("sessions");
        for (Session s : sessions) {
            ObjectNode o = list.addObject().put("name", s.stack().name()).put("id", s.id()).put("status", s.status().word());
            String reason = s.status().isWaiting() ? s.waitingReason()
                    : s.status() == SessionStatus.SKIPPED ? s.snapshot().reason() : null;
            if (reason != null) {
                o.put("reason", reason);
            }
        }
        ArrayNode disabled = reply.putArray("disabled");
        Orchestrator.disabledAmong(ws, named, noDeps).forEach(disabled::add);
        return reply;
    }
}
