package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.Session;
import dev.runboard.store.Json;

/** {@code show}: one session's snapshot (its id or a unique prefix); {@code reveal} as for {@code list}. */
@JsonTypeName("show")
record ShowRequest(String id, Boolean reveal) implements Request {
    @Override
    public ObjectNode answer(Served served) throws Exception {
        Session session = served.session(id);
        ObjectNode reply = Protocol.ok();
        reply.set("snapshot", LiveUsage.add(Json.mapper().valueToTree(Served.shown(session, Boolean.TRUE.equals(reveal))),
                session, served.engine().insight(session)));
        return reply;
    }
}
