package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;

/**
 * A request of the supervisor's protocol, as its record: one file per request, holding its fields and
 * how the supervisor answers it (pueue's messages and message handlers). {@link Requests} decodes a
 * line into its record once, and encodes a record into the line a client sends; its name on the wire
 * (its {@code op}) is its {@link com.fasterxml.jackson.annotation.JsonTypeName}, and
 * {@code protocol-schema.json} beside this class describes every one of them for the tests and the
 * Perl clients. Adding a request is a record here and its name in {@code permits}. On the wire its fields
 * are snake_case, and a null one is left out. {@code R} is the record of its reply ({@link Protocol.Reply}),
 * which the schema describes too: the supervisor writes it, the client reads it back into the same record.
 *
 * @param <R> the reply's record
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
sealed interface Request<R extends Protocol.Reply> permits StatusRequest, StartRequest, KillRequest, SignalRequest,
        SignalProcessRequest, StdinRequest, CloseStdinRequest, RemoveRequest, ListRequest, ListRowsRequest, ResolveRequest,
        ShowRequest, UsageRequest, WaitRequest, AdoptExecRequest, ExecExitedRequest, StopRequest, UpRequest, DownRequest,
        QueueRequest, CliRequest {
    /**
     * The reply, made by asking the engine (the engine alone changes sessions). A {@link Served.Refused}
     * or an IllegalArgumentException is the request's fault, said to the client as a usage error.
     */
    R answer(Served served) throws Exception;
}
