package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;

/**
 * {@code stop}: the supervisor exits, its sessions keep running. Served whatever version asks it
 * ({@link Protocol#STOP}): the one request every runboard must understand of another.
 */
@JsonTypeName(Protocol.STOP)
record StopRequest() implements Request<Protocol.Done> {
    @Override
    public Protocol.Done answer(Served served) {
        served.supervisor().stop();
        return new Protocol.Done();
    }
}
