package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.Session;
import dev.runboard.session.Signal;

/** {@code signal}: one signal to the running session's process group (pause, resume, an interrupt). */
@JsonTypeName("signal")
record SignalRequest(String id, String signal) implements Request<SignalRequest.Reply> {
    /** Whether the signal was sent, and to which process group (the session's leader's). */
    record Reply(boolean sent, Long processGroup) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) throws Exception {
        Session session = served.running(id);
        // The engine checks the leader's identity (pid and start time) right before the signal.
        boolean sent = served.engine().signal(session, Signal.parse(signal == null ? "" : signal));
        return new Reply(sent, session.pid());
    }
}
