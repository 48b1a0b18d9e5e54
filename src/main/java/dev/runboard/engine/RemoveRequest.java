package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@code remove}: an ended session's record, with its output ({@code artifact}, true when absent) or without. */
@JsonTypeName("remove")
record RemoveRequest(String id, Boolean artifact) implements Request {
    @Override
    public ObjectNode answer(Served served) throws Exception {
        long bytes = served.engine().remove(served.session(id), artifact == null || artifact);
        return Protocol.ok().put("bytes", bytes);
    }
}
