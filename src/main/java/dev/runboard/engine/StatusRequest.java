package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;

/** {@code status}: the supervisor's facts (its pid, version, sessions, uptime). */
@JsonTypeName("status")
record StatusRequest() implements Request<StatusRequest.Reply> {
    /** The supervisor's facts. */
    record Reply(Supervisor.Status supervisor) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) {
        return new Reply(served.supervisor().status(served.engine()));
    }
}
