package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.List;

/** {@code usage}: the live usage of the running sessions named by {@code ids}, what a window shows for remote ones. */
@JsonTypeName("usage")
record UsageRequest(List<String> ids) implements Request<UsageRequest.Reply> {
    /** The usage of each session asked for that runs and was sampled, by its id. */
    record Reply(Map<String, Sampled> usage) implements Protocol.Reply {
    }

    /** A session's usage and the pid of its leader, whose tree it is. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Sampled(long leaderPid, LiveUsage usage) {
    }

    @Override
    public Reply answer(Served served) {
        Map<String, Sampled> all = new LinkedHashMap<>();
        for (String id : ids == null ? List.<String>of() : ids) {
            served.engine().find(id).filter(s -> s.status().isLive() && s.pid() != null).ifPresent(s -> {
                LiveUsage usage = LiveUsage.of(served.engine().insight(s));
                if (usage != null) {
                    all.put(s.id(), new Sampled(s.pid(), usage));
                }
            });
        }
        return new Reply(all);
    }
}
