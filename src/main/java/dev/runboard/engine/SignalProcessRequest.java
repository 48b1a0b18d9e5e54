package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.Signal;
import java.util.List;

/** {@code signal_process}: a signal to one process of the running session, or to it and its descendants ({@code subtree}). */
@JsonTypeName("signal_process")
record SignalProcessRequest(String id, long pid, String signal, boolean subtree)
        implements Request<SignalProcessRequest.Reply> {
    /** The processes signalled. */
    record Reply(List<Long> pids) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) throws Exception {
        List<Long> pids = served.engine().signalProcess(served.running(id), pid, Signal.parse(signal == null ? "" : signal), subtree);
        return new Reply(pids);
    }
}
