package dev.runboard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SocketChannel;
import java.util.List;

/**
 * The supervisor's side of a connection: each request line is decoded once into its record
 * ({@link Requests}) and answered by it ({@link Request#answer}, one file per request, as pueue has
 * one message handler per message). Handlers only ask the engine; the engine alone changes sessions
 * and writes their records.
 */
final class SupervisorRequests {
    /** The lines of {@code runboard list}, made here from the sessions in memory ({@link ListRows}). */
    static final String LIST_ROWS = "list_rows";

    /** A request that cannot be served as asked: said to the client as a usage error. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    private final Served served;

    SupervisorRequests(SessionEngine engine, Supervisor supervisor,
                       java.util.function.Function<List<String>, SessionSpec> startArguments,
                       ClientCommands cli, dev.runboard.stack.Orchestrator orchestrator,
                       ListIndex listIndex) {
        this.served = new Served(engine, supervisor, new StackRequests(engine, orchestrator), listIndex,
                new ThinClientCall(cli, supervisor.heartbeats), startArguments,
                new java.util.concurrent.ConcurrentHashMap<>());
    }

    /** Answers the requests of one connection until the client closes it. */
    void serve(SocketChannel ch) throws IOException {
        BufferedReader in = Protocol.reader(ch);
        OutputStream out = Protocol.writer(ch);
        for (JsonNode line; (line = Protocol.receive(in)) != null; ) {
            JsonNode asked = line;
            if (ThinClientCall.OP.equals(line.path("op").asText()) && Protocol.versionProblem(line, "client") == null) {
                Request<?> cli = decoded(line);
                if (cli instanceof CliRequest call) {
                    // A streamed reply: frames of output, then the exit code; the call is the connection's last.
                    served.thinClient().serve(call, in, out);
                    return;
                }
            }
            served.supervisor().heartbeats.reply(out, () -> {
                try {
                    return Protocol.line(answer(asked));
                } catch (RuntimeException e) {
                    // A reply its record cannot be written as (a bug): said in one line, as any failure.
                    return Protocol.line(new Protocol.Refusal(String.valueOf(e.getMessage()), false));
                }
            });
        }
    }

    private static Request<?> decoded(JsonNode line) {
        try {
            return Requests.decode(line);
        } catch (Refused malformed) {
            return null; // answered below, as any refusal
        }
    }

    /**
     * The reply to one request line: refused in one line when it speaks another version (but {@code stop},
     * served whatever version asks it), names no request, or is malformed; else its record's answer.
     */
    Protocol.Reply answer(JsonNode line) {
        String problem = Protocol.versionProblem(line, "client");
        if (problem != null && !line.path("op").asText().equals(Protocol.STOP)) {
            return new Protocol.Refusal(problem, false);
        }
        try {
            return Requests.decode(line).answer(served);
        } catch (Refused | IllegalArgumentException | IllegalStateException e) {
            return new Protocol.Refusal(e.getMessage(), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Protocol.Refusal("the supervisor is stopping", false);
        } catch (Exception e) {
            return new Protocol.Refusal(String.valueOf(e.getMessage() == null ? e : e.getMessage()), false);
        }
    }

    /** The final snapshot as exec prints it, in hex (the exec client decodes it with a builtin). */
    static String execSnapshotHex(SessionSnapshot last) {
        return java.util.HexFormat.of().formatHex(dev.runboard.store.Json.writeBytes(last));
    }
}
