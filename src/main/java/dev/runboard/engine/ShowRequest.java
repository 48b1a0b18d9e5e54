package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;

/** {@code show}: one session's snapshot (its id or a unique prefix); {@code reveal} as for {@code list}. */
@JsonTypeName("show")
record ShowRequest(String id, Boolean reveal) implements Request<ShowRequest.Reply> {
    /** One session's snapshot ({@code show}; {@code wait}'s final one). */
    record Reply(ShownSnapshot snapshot) implements Protocol.Reply {
    }

    @Override
    public Reply answer(Served served) throws Exception {
        return new Reply(served.shownLive(served.session(id), Boolean.TRUE.equals(reveal)));
    }
}
