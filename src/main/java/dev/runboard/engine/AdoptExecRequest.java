package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.process.EarlyLaunch;
import dev.runboard.session.Session;
import dev.runboard.session.SessionId;
import dev.runboard.session.SessionSpec;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code adopt_exec}, from bin/runboard's exec client (bin/runboard-exec.pl): the wrapper {@code pid} runs
 * the command of session {@code id} in the folder bin/runboard made, launched at {@code launched_ms}, and
 * {@code argv} are exec's options and command as start takes them. The supervisor takes the command over
 * as exec's JVM would (docs/BENCHMARKS.md §10, round 15). Refused, with nothing written, when that process
 * does not carry the session's tag.
 */
@JsonTypeName("adopt_exec")
record AdoptExecRequest(String id, long pid, long launchedMs, List<String> argv) implements Request<StartRequest.Reply> {
    @Override
    public StartRequest.Reply answer(Served served) throws Exception {
        if (id == null || !SessionId.isValid(id)) {
            throw new SupervisorRequests.Refused("'" + id + "' is not a session id");
        }
        ProcessHandle wrapper = ProcessHandle.of(pid)
                .orElseThrow(() -> new SupervisorRequests.Refused("process " + pid + " is not running"));
        if (!served.engine().config().os().hasEnvEntry(pid, Session.TAG_VARIABLE + "=" + id)) {
            throw new SupervisorRequests.Refused("process " + pid + " is not the wrapper of session " + id);
        }
        SessionSpec spec = served.startArguments().apply(argv == null ? List.of() : argv);
        CompletableFuture<Void> exited = new CompletableFuture<>();
        served.execExits().put(id, exited);
        Session session;
        try {
            session = served.engine().adoptEarly(spec, new EarlyLaunch(wrapper, java.time.Instant.ofEpochMilli(launchedMs), id),
                    exited);
        } catch (RuntimeException e) { // InvalidSpecException too
            served.execExits().remove(id);
            throw e;
        }
        session.addListener(s -> served.execExits().remove(id));
        return StartRequest.Reply.of(session);
    }
}
