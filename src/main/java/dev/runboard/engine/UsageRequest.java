package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.SessionInsight;
import java.util.List;

/** {@code usage}: the live usage of the running sessions named by {@code ids}, what a window shows for remote ones. */
@JsonTypeName("usage")
record UsageRequest(List<String> ids) implements Request {
    @Override
    public ObjectNode answer(Served served) {
        ObjectNode reply = Protocol.ok();
        ObjectNode all = reply.putObject("usage");
        for (String id : ids == null ? List.<String>of() : ids) {
            served.engine().find(id).filter(s -> s.status().isLive() && s.pid() != null).ifPresent(s -> {
                SessionInsight insight = served.engine().insight(s);
                if (insight != null && insight.sampledAt() != null) {
                    ObjectNode one = all.putObject(s.id());
                    one.put("leader_pid", s.pid());
                    LiveUsage.write(one.putObject("usage"), insight);
                }
            });
        }
        return reply;
    }
}
