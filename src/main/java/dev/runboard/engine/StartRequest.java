package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;
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
        implements Request {
    @Override
    public ObjectNode answer(Served served) throws Exception {
        if (spec == null) {
            throw new SupervisorRequests.Refused("start needs a spec");
        }
        return started(served.stack().startPlaced(spec.toSpec(), queue, after == null ? List.of() : after, environment));
    }

    /** The reply to a request that started a session: its id and status. */
    static ObjectNode started(Session session) {
        return Protocol.ok().put("id", session.id()).put("status", session.status().word());
    }
}
