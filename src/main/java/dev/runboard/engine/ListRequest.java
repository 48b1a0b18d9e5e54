package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.Session;

/** {@code list}: every session's snapshot, oldest first; {@code reveal}: secret environment values unmasked. */
@JsonTypeName("list")
record ListRequest(Boolean reveal) implements Request<ListRequest.Reply> {
    /** Every session's snapshot, oldest first. */
    record Reply(java.util.List<ShownSnapshot> sessions) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) {
        java.util.List<ShownSnapshot> sessions = new java.util.ArrayList<>();
        for (Session s : served.engine().sessions()) {
            sessions.add(served.shownLive(s, Boolean.TRUE.equals(reveal)));
        }
        return new Reply(sessions);
    }
}
