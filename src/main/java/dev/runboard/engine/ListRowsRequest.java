package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import java.util.List;

/**
 * {@code list_rows}: the lines of {@code runboard list}, made here from the sessions in memory
 * ({@link ListRows}): {@code rows}, {@code [status, line]} per session, oldest first; ended sessions'
 * lines are kept between calls.
 */
@JsonTypeName("list_rows")
record ListRowsRequest() implements Request<ListRowsRequest.Reply> {
    /**
     * The rows, oldest first, each {@code [status, line]} (a pair, not an object: a long history's reply is
     * mostly these lines, and {@link ListRows} stays free of Jackson).
     */
    record Reply(List<List<String>> rows) implements Protocol.Reply {
        static Reply of(List<ListRows.Row> rows) {
            return new Reply(rows.stream().map(r -> List.of(r.status(), r.line())).toList());
        }

        List<ListRows.Row> listed() {
            return rows.stream().map(r -> new ListRows.Row(r.get(0), r.get(1))).toList();
        }
    }

    @Override
    public Reply answer(Served served) {
        return Reply.of(served.listIndex().rows(served.engine().sessions()));
    }
}
