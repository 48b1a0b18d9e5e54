package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** {@code close_stdin}: the end of the running session's input. */
@JsonTypeName("close_stdin")
record CloseStdinRequest(String id) implements Request {
    @Override
    public ObjectNode answer(Served served) throws Exception {
        StdinRequest.inputOf(served, served.running(id)).close();
        return Protocol.ok();
    }
}
