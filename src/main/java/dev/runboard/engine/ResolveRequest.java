package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@code resolve}: the whole id an id or a unique prefix of one names. */
@JsonTypeName("resolve")
record ResolveRequest(String id) implements Request {
    @Override
    public ObjectNode answer(Served served) throws Exception {
        return Protocol.ok().put("id", served.session(id).id());
    }
}
