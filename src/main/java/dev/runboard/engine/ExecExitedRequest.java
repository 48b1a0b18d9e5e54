package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import java.util.concurrent.CompletableFuture;

/**
 * {@code exec_exited}, sent by the exec client once it has waited for its child (the wrapper): answered
 * with exec's exit code and the final snapshot as exec prints it ({@code snapshot_hex}), once the record is final.
 */
@JsonTypeName("exec_exited")
record ExecExitedRequest(String id) implements Request<ExecExitedRequest.Reply> {
    /**
     * exec's exit code and its final snapshot as it prints it, in hex. The exec client reads this line with a
     * pattern ({@code "ok":true,"exit":N,"snapshot_hex":"HEX"}): the fields keep this order.
     */
    record Reply(int exit, String snapshotHex) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) throws Exception {
        Session session = served.session(id);
        CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
        session.addListener(ended::complete);
        CompletableFuture<Void> exited = served.execExits().get(session.id());
        if (exited != null) {
            exited.complete(null);
        }
        SessionSnapshot last = ended.get();
        return new Reply(dev.runboard.session.ExecExitCode.of(last), SupervisorRequests.execSnapshotHex(last));
    }
}
