package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code stop}: the supervisor exits, its sessions keep running. Served whatever version asks it
 * ({@link Protocol#STOP}): the one request every runboard must understand of another.
 */
@JsonTypeName(Protocol.STOP)
record StopRequest() implements Request {
    @Override
    public ObjectNode answer(Served served) {
        served.supervisor().stop();
        return Protocol.ok();
    }
}
