package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.store.Json;

/** {@code wait}: answered once the session has ended and its record is final, with its final snapshot. */
@JsonTypeName("wait")
record WaitRequest(String id) implements Request {
    @Override
    public ObjectNode answer(Served served) throws Exception {
        ObjectNode reply = Protocol.ok();
        reply.set("snapshot", Json.mapper().valueToTree(Served.ended(served.session(id))));
        return reply;
    }
}
