package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.store.Json;

/** {@code status}: the supervisor's facts (its pid, version, sessions, uptime). */
@JsonTypeName("status")
record StatusRequest() implements Request {
    @Override
    public ObjectNode answer(Served served) {
        ObjectNode reply = Protocol.ok();
        reply.set("supervisor", Json.mapper().valueToTree(served.supervisor().status(served.engine())));
        return reply;
    }
}
