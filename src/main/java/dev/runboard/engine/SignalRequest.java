package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.Session;
import dev.runboard.session.Signal;

/** {@code signal}: one signal to the running session's process group (pause, resume, an interrupt). */
@JsonTypeName("signal")
record SignalRequest(String id, String signal) implements Request {
    @Override
    public ObjectNode answer(Served served) throws Exception {
        Session session = served.running(id);
        // The engine checks the leader's identity (pid and start time) right before the signal.
        boolean sent = served.engine().signal(session, Signal.parse(signal == null ? "" : signal));
        return Protocol.ok().put("sent", sent).put("process_group", session.pid());
    }
}
