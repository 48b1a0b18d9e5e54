package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.Session;
import java.io.OutputStream;
import java.util.Base64;

/** {@code stdin}: bytes ({@code data}, base64) for the running session's input. */
@JsonTypeName("stdin")
record StdinRequest(String id, String data) implements Request<Protocol.Done> {
    @Override
    public Protocol.Done answer(Served served) throws Exception {
        OutputStream in = inputOf(served, served.running(id));
        in.write(Base64.getDecoder().decode(data == null ? "" : data));
        in.flush();
        return new Protocol.Done();
    }

    /** The session's input, which only a session the supervisor started and still runs holds. */
    static OutputStream inputOf(Served served, Session session) throws SupervisorRequests.Refused {
        OutputStream in = served.engine().stdin(session);
        if (in == null) {
            throw new SupervisorRequests.Refused("session " + session.id() + " takes no input: only a session the supervisor"
                    + " started and still runs holds its stdin (one adopted after a crash has lost it)");
        }
        return in;
    }
}
