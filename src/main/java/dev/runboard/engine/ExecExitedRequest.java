package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import java.util.concurrent.CompletableFuture;

/**
 * {@code exec_exited}, sent by the exec client once it has waited for its child (the wrapper): answered
 * with exec's exit code and the final snapshot as exec prints it ({@code snapshot_hex}), once the record is final.
 */
@JsonTypeName("exec_exited")
record ExecExitedRequest(String id) implements Request {
    @Override
    public ObjectNode answer(Served served) throws Exception {
        Session session = served.session(id);
        CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
        session.addListener(ended::complete);
        CompletableFuture<Void> exited = served.execExits().get(session.id());
        if (exited != null) {
            exited.complete(null);
        }
        SessionSnapshot last = ended.get();
        return Protocol.ok().put("exit", dev.runboard.session.ExecExitCode.of(last))
                .put("snapshot_hex", SupervisorRequests.execSnapshotHex(last));
    }
}
