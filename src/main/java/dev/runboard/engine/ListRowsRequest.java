package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * {@code list_rows}: the lines of {@code runboard list}, made here from the sessions in memory
 * ({@link ListRows}): {@code rows}, {@code [status, line]} per session, oldest first; ended sessions'
 * lines are kept between calls.
 */
@JsonTypeName("list_rows")
record ListRowsRequest() implements Request {
    @Override
    public ObjectNode answer(Served served) {
        ObjectNode reply = Protocol.ok();
        ArrayNode rows = reply.putArray("rows");
        for (ListRows.Row r : served.listIndex().rows(served.engine().sessions())) {
            rows.addArray().add(r.status()).add(r.line());
        }
        return reply;
    }
}
