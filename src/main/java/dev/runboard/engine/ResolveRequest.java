package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;

/** {@code resolve}: the whole id an id or a unique prefix of one names. */
@JsonTypeName("resolve")
record ResolveRequest(String id) implements Request<ResolveRequest.Reply> {
    /** The whole id. */
    record Reply(String id) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) throws Exception {
        return new Reply(served.session(id).id());
    }
}
