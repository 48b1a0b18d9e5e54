package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;

/** {@code wait}: answered once the session has ended and its record is final, with its final snapshot. */
@JsonTypeName("wait")
record WaitRequest(String id) implements Request<ShowRequest.Reply> {
    @Override
    public ShowRequest.Reply answer(Served served) throws Exception {
        return new ShowRequest.Reply(ShownSnapshot.of(Served.ended(served.session(id)), null));
    }
}
