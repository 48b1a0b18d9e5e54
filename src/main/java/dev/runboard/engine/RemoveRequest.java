package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;

/** {@code remove}: an ended session's record, with its output ({@code artifact}, true when absent) or without. */
@JsonTypeName("remove")
record RemoveRequest(String id, Boolean artifact) implements Request<RemoveRequest.Reply> {
    /** How many bytes of the data dir the removal freed. */
    record Reply(long bytes) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) throws Exception {
        long bytes = served.engine().remove(served.session(id), artifact == null || artifact);
        return new Reply(bytes);
    }
}
