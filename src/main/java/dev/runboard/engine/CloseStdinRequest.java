package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;

/** {@code close_stdin}: the end of the running session's input. */
@JsonTypeName("close_stdin")
record CloseStdinRequest(String id) implements Request<Protocol.Done> {
    @Override
    public Protocol.Done answer(Served served) throws Exception {
        StdinRequest.inputOf(served, served.running(id)).close();
        return new Protocol.Done();
    }
}
