package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.Session;
import dev.runboard.store.SpecRecord;
import java.util.List;
import java.util.Map;

/**
 * {@code start}: a session of {@code spec}, its command starting from {@code environment} (the client's;
 * null: the supervisor's own), in {@code queue} and after the sessions of {@code after} ({@code ID[:CONDITION]})
 * when given. Every start goes through the orchestrator's one path to a launched wrapper.
 */
@JsonTypeName("start")
record StartRequest(SpecRecord spec, Map<String, String> environment, String queue, List<String> after)
        implements Request<StartRequest.Reply> {
    /** The reply to a request that started a session ({@code start}, {@code adopt_exec}): its id and status. */
    record Reply(String id, dev.runboard.session.SessionStatus status) implements Protocol.Reply {
        static Reply of(Session session) {
            return new Reply(session.id(), session.status());
        }
    }

    @Override
    public Reply answer(Served served) throws Exception {
        if (spec == null) {
            throw new SupervisorRequests.Refused("start needs a spec");
        }
        if (spec.cwd() == null) { // a record read from a file is checked for it (SpecRecord.check); a request, here
            throw new SupervisorRequests.Refused("start needs the spec's cwd (an absolute folder)");
        }
        return Reply.of(served.stack().startPlaced(spec.toSpec(), queue, after == null ? List.of() : after, environment));
    }
}
