package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;

/** {@code queue}: how many sessions of queue {@code name} run at once ({@code parallel}; 0: no limit). */
@JsonTypeName("queue")
record QueueRequest(String name, int parallel) implements Request<Protocol.Done> {
    @Override
    public Protocol.Done answer(Served served) throws Exception {
        if (name == null || name.isBlank()) {
            throw new SupervisorRequests.Refused("queue needs a name");
        }
        served.stack().orchestrator().setParallel(name, parallel);
        return new Protocol.Done();
    }
}
