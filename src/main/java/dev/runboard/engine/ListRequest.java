package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.Session;
import dev.runboard.store.Json;

/** {@code list}: every session's snapshot, oldest first; {@code reveal}: secret environment values unmasked. */
@JsonTypeName("list")
record ListRequest(Boolean reveal) implements Request {
    @Override
    public ObjectNode answer(Served served) {
        ObjectNode reply = Protocol.ok();
        ArrayNode sessions = reply.putArray("sessions");
        for (Session s : served.engine().sessions()) {
            sessions.add(LiveUsage.add(Json.mapper().valueToTree(Served.shown(s, Boolean.TRUE.equals(reveal))), s,
                    served.engine().insight(s)));
        }
        return reply;
    }
}
