package dev.runboard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.store.Json;
import dev.runboard.store.SpecRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The supervisor's answers, one method per request (pueue's message handlers). Handlers only ask
 * the engine; the engine alone changes sessions and writes their records.
 */
final class SupervisorRequests {
    /** How long a kill may take beyond its grace before the reply gives up waiting for the final record. */
    private static final Duration KILL_SLACK = Duration.ofSeconds(15);

    /** The lines of {@code runboard list}, made here from the sessions in memory ({@link ListRows}). */
    static final String LIST_ROWS = "list_rows";

    /**
     * bin/runboard's exec client (bin/runboard-exec.pl): when this data dir's supervisor is up, an
     * exec whose command bin/runboard launched early is handed to it instead of to a JVM started
     * beside the command (docs/BENCHMARKS.md §10, round 15). {@value #ADOPT_EXEC} takes the command
     * over as exec's JVM would; {@value #EXEC_EXITED}, sent once the client has waited for its
     * child, is answered with the final snapshot, as exec prints it, and exec's exit code.
     */
    static final String ADOPT_EXEC = "adopt_exec";
    static final String EXEC_EXITED = "exec_exited";

    /** What exec clients reported of their wrappers' ends, by session id, until the session's record is final. */
    private final Map<String, CompletableFuture<Void>> execExits = new java.util.concurrent.ConcurrentHashMap<>();

    /** A request that cannot be served as asked: said to the client as a usage error. */
    static final class Refused extends Exception {
        Refused(String message) {
            super(message);
        }
    }

    interface Handler {
        ObjectNode handle(JsonNode request) throws Exception;
    }

    private final SessionEngine engine;
    private final Supervisor supervisor;
    private final Map<String, Handler> handlers;
    private final java.util.function.Function<List<String>, SessionSpec> startArguments;
    private final ThinClientCall thinClient;
    private final StackRequests stack;
    private final ListIndex listIndex;

    SupervisorRequests(SessionEngine engine, Supervisor supervisor,
                       java.util.function.Function<List<String>, SessionSpec> startArguments,
                       ClientCommands cli, dev.runboard.stack.Orchestrator orchestrator,
                       ListIndex listIndex) {
        this.engine = engine;
        this.listIndex = listIndex;
        this.supervisor = supervisor;
        this.startArguments = startArguments;
        this.thinClient = new ThinClientCall(cli, supervisor.heartbeats);
        this.stack = new StackRequests(engine, orchestrator);
        this.handlers = new java.util.HashMap<>(Map.ofEntries(
                Map.entry("status", this::status),
                Map.entry("start", this::start),
                Map.entry("kill", this::kill),
                Map.entry("signal", this::signal),
                Map.entry("signal_process", this::signalProcess),
                Map.entry("stdin", this::stdin),
                Map.entry("close_stdin", this::closeStdin),
                Map.entry("remove", this::remove),
                Map.entry("list", this::list),
                Map.entry(LIST_ROWS, this::listRows),
                Map.entry("resolve", this::resolve),
                Map.entry("show", this::show),
                Map.entry("usage", this::usage),
                Map.entry("wait", this::await),
                Map.entry(ADOPT_EXEC, this::adoptExec),
                Map.entry(EXEC_EXITED, this::execExited),
                Map.entry("stop", this::stop)));
        stack.register(handlers);
    }

    /** Answers the requests of one connection until the client closes it. */
    void serve(SocketChannel ch) throws IOException {
        BufferedReader in = Protocol.reader(ch);
        OutputStream out = Protocol.writer(ch);
        for (JsonNode request; (request = Protocol.receive(in)) != null; ) {
            JsonNode asked = request;
            if (ThinClientCall.OP.equals(request.path("op").asText()) && Protocol.versionProblem(request, "client") == null) {
                thinClient.serve(request, out); // a streamed reply: frames of output, then the exit code
                continue;
            }
            supervisor.heartbeats.reply(out, () -> {
                try {
                    return Protocol.line(answer(asked));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
    }

    ObjectNode answer(JsonNode request) {
        String problem = Protocol.versionProblem(request, "client");
        if (problem != null && !request.path("op").asText().equals(Protocol.STOP)) {
            return Protocol.error(problem, false);
        }
        Handler handler = handlers.get(request.path("op").asText());
        if (handler == null) {
            // Quoted, at most 80 characters: a 4 MiB op is not sent back whole.
            return Protocol.error("unknown request " + dev.runboard.session.SessionId.quote(request.path("op").asText()), true);
        }
        try {
            return handler.handle(request);
        } catch (Refused | IllegalArgumentException | IllegalStateException e) {
            return Protocol.error(e.getMessage(), true);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Protocol.error("the supervisor is stopping", false);
        } catch (Exception e) {
            return Protocol.error(String.valueOf(e.getMessage() == null ? e : e.getMessage()), false);
        }
    }

    private ObjectNode status(JsonNode request) {
        ObjectNode reply = Protocol.ok();
        reply.set("supervisor", Json.mapper().valueToTree(supervisor.status(engine)));
        return reply;
    }

    private ObjectNode start(JsonNode request) throws Exception {
        SpecRecord spec = Json.mapper().treeToValue(request.path("spec"), SpecRecord.class);
        if (spec == null) {
            throw new Refused("start needs a spec");
        }
        List<String> after = new java.util.ArrayList<>();
        request.path("after").forEach(a -> after.add(a.asText()));
        return started(stack.startPlaced(spec.toSpec(), request.path("queue").asText(null), after, environment(request)));
    }

    private static ObjectNode started(Session session) {
        return Protocol.ok().put("id", session.id()).put("status", session.status().word());
    }

    /** The client's environment, which the command starts from; null (the supervisor's own) when not sent. */
    private static Map<String, String> environment(JsonNode request) {
        if (!request.hasNonNull("environment")) {
            return null;
        }
        Map<String, String> environment = new java.util.HashMap<>();
        request.get("environment").fields().forEachRemaining(f -> environment.put(f.getKey(), f.getValue().asText()));
        return environment;
    }

    private ObjectNode kill(JsonNode request) throws Exception {
        Session waiting = session(request);
        java.time.Instant asked = java.time.Instant.now();
        if (stack.cancel(waiting)) {
            // It waited: ended killed without running. The report says so: nothing was there to signal.
            KillReport cancelled = new KillReport(StackRequests.CANCELLED, request.path("signal").asText("TERM"), 0, asked, 0,
                    List.of(), false, List.of(), List.of(), java.time.Instant.now(), List.of(), List.of(),
                    List.of("it had not started: nothing was running to signal"));
            return Protocol.ok().set("report", Json.mapper().valueToTree(cancelled));
        }
        Session found = session(request);
        // An ended session whose wrapper holds processes it left behind (lingering) is killed too.
        Session session = found.status().isTerminal() && !found.lingering().isEmpty() ? found : running(request);
        Signal signal = Signal.parse(request.path("signal").asText("TERM"));
        Duration grace = request.hasNonNull("grace_ms") ? Duration.ofMillis(request.get("grace_ms").asLong())
                : session.spec().grace();
        if (grace.isNegative()) {
            throw new Refused("the grace must not be negative");
        }
        CompletableFuture<Object> ended = new CompletableFuture<>();
        session.addListener(ended::complete);
        KillReport report = engine.kill(session, signal, grace).get();
        ObjectNode reply = Protocol.ok();
        reply.set("report", Json.mapper().valueToTree(report));
        try {
            // The reply comes once the record is final, so a client's next look sees the end.
            ended.get(grace.toMillis() + KILL_SLACK.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            reply.put("warning", "the session had not ended " + KILL_SLACK.toSeconds() + " s after the kill");
        }
        return reply;
    }

    private ObjectNode signal(JsonNode request) throws Exception {
        Session session = running(request);
        // The engine checks the leader's identity (pid and start time) right before the signal.
        boolean sent = engine.signal(session, Signal.parse(request.path("signal").asText()));
        return Protocol.ok().put("sent", sent).put("process_group", session.pid());
    }

    private ObjectNode signalProcess(JsonNode request) throws Exception {
        Session session = running(request);
        List<Long> pids = engine.signalProcess(session, request.path("pid").asLong(),
                Signal.parse(request.path("signal").asText()), request.path("subtree").asBoolean());
        ObjectNode reply = Protocol.ok();
        ArrayNode list = reply.putArray("pids");
        pids.forEach(list::add);
        return reply;
    }

    private ObjectNode stdin(JsonNode request) throws Exception {
        Session session = running(request);
        OutputStream in = inputOf(session);
        in.write(Base64.getDecoder().decode(request.path("data").asText("")));
        in.flush();
        return Protocol.ok();
    }

    private ObjectNode closeStdin(JsonNode request) throws Exception {
        inputOf(running(request)).close();
        return Protocol.ok();
    }

    private OutputStream inputOf(Session session) throws Refused {
        OutputStream in = engine.stdin(session);
        if (in == null) {
            throw new Refused("session " + session.id() + " takes no input: only a session the supervisor started"
                    + " and still runs holds its stdin (one adopted after a crash has lost it)");
        }
        return in;
    }

    private ObjectNode remove(JsonNode request) throws Exception {
        Session session = session(request);
        long bytes = engine.remove(session, request.path("artifact").asBoolean(true));
        return Protocol.ok().put("bytes", bytes);
    }

    private ObjectNode list(JsonNode request) {
        ObjectNode reply = Protocol.ok();
        ArrayNode sessions = reply.putArray("sessions");
        for (Session s : engine.sessions()) {
            sessions.add(LiveUsage.add(Json.mapper().valueToTree(shown(s, request)), s, engine.insight(s)));
        }
        return reply;
    }

    /** {@code rows}: {@code [status, line]} per session, oldest first; ended sessions' lines are kept between calls. */
    private ObjectNode listRows(JsonNode request) {
        ObjectNode reply = Protocol.ok();
        ArrayNode rows = reply.putArray("rows");
        for (ListRows.Row r : listIndex.rows(engine.sessions())) {
            rows.addArray().add(r.status()).add(r.line());
        }
        return reply;
    }

    private ObjectNode show(JsonNode request) throws Refused {
        ObjectNode reply = Protocol.ok();
        Session session = session(request);
        reply.set("snapshot", LiveUsage.add(Json.mapper().valueToTree(shown(session, request)), session, engine.insight(session)));
        return reply;
    }

    /** The session's snapshot; with {@code reveal} its secret environment values as given (the client asked, --reveal). */
    private static SessionSnapshot shown(Session session, JsonNode request) {
        SessionSnapshot snapshot = session.snapshot();
        return request.path("reveal").asBoolean(false) ? snapshot.revealed(session.spec().env()) : snapshot;
    }

    /** The live usage of the running sessions named by {@code ids}: what a window shows for remote ones. */
    private ObjectNode usage(JsonNode request) {
        ObjectNode reply = Protocol.ok();
        ObjectNode all = reply.putObject("usage");
        for (JsonNode id : request.path("ids")) {
            engine.find(id.asText()).filter(s -> s.status().isLive() && s.pid() != null).ifPresent(s -> {
                dev.runboard.session.SessionInsight insight = engine.insight(s);
                if (insight != null && insight.sampledAt() != null) {
                    ObjectNode one = all.putObject(s.id());
                    one.put("leader_pid", s.pid());
                    LiveUsage.write(one.putObject("usage"), insight);
                }
            });
        }
        return reply;
    }

    private ObjectNode resolve(JsonNode request) throws Refused {
        return Protocol.ok().put("id", session(request).id());
    }

    private ObjectNode await(JsonNode request) throws Refused, InterruptedException, ExecutionException {
        Session session = session(request);
        CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
        session.addListener(ended::complete);
        ObjectNode reply = Protocol.ok();
        reply.set("snapshot", Json.mapper().valueToTree(ended.get()));
        return reply;
    }

    /**
     * {@code {"id", "pid", "launched_ms", "argv"}}: the wrapper {@code pid} runs the command of session
     * {@code id} in the folder bin/runboard made, and {@code argv} are exec's options as start takes
     * them. Refused, with nothing written, when that process does not carry the session's tag.
     */
    private ObjectNode adoptExec(JsonNode request) throws Exception {
        String id = request.path("id").asText("");
        if (!dev.runboard.session.SessionId.isValid(id)) {
            throw new Refused("'" + id + "' is not a session id");
        }
        long pid = request.path("pid").asLong(-1);
        ProcessHandle wrapper = ProcessHandle.of(pid).orElseThrow(() -> new Refused("process " + pid + " is not running"));
        if (!engine.config().os().hasEnvEntry(pid, Session.TAG_VARIABLE + "=" + id)) {
            throw new Refused("process " + pid + " is not the wrapper of session " + id);
        }
        List<String> argv = new java.util.ArrayList<>();
        request.path("argv").forEach(a -> argv.add(a.asText()));
        SessionSpec spec = startArguments.apply(argv);
        CompletableFuture<Void> exited = new CompletableFuture<>();
        execExits.put(id, exited);
        Session session;
        try {
            session = engine.adoptEarly(spec, new dev.runboard.process.EarlyLaunch(wrapper,
                    java.time.Instant.ofEpochMilli(request.path("launched_ms").asLong()), id), exited);
        } catch (RuntimeException e) { // InvalidSpecException too
            execExits.remove(id);
            throw e;
        }
        session.addListener(s -> execExits.remove(id));
        return started(session);
    }

    private ObjectNode execExited(JsonNode request) throws Exception {
        Session session = session(request);
        CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
        session.addListener(ended::complete);
        CompletableFuture<Void> exited = execExits.get(session.id());
        if (exited != null) {
            exited.complete(null);
        }
        SessionSnapshot last = ended.get();
        return Protocol.ok().put("exit", dev.runboard.session.ExecExitCode.of(last))
                .put("snapshot_hex", java.util.HexFormat.of().formatHex(dev.runboard.store.Json.writeBytes(last)));
    }

    private ObjectNode stop(JsonNode request) {
        supervisor.stop();
        return Protocol.ok();
    }

    private Session running(JsonNode request) throws Refused {
        Session session = session(request);
        if (session.status().isTerminal() || session.pid() == null) {
            throw new Refused("session " + session.id() + " is not running (" + session.status().word() + ")");
        }
        return session;
    }

    /** The session a request names: its whole id, or the only id starting with what was given. */
    private Session session(JsonNode request) throws Refused {
        String id = request.path("id").asText("");
        if (id.isEmpty()) {
            throw new Refused("no session id given");
        }
        if (id.length() > dev.runboard.session.SessionId.MAX_LENGTH) {
            // No id is this long; quoted, at most 80 characters: a 4 MiB id made a refusal of 8 MB.
            throw new Refused(dev.runboard.session.SessionId.quote(id) + " is not a session id (at most "
                    + dev.runboard.session.SessionId.MAX_LENGTH + " characters)");
        }
        List<Session> matches = engine.matching(id);
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.isEmpty()) {
            throw new Refused(dev.runboard.store.MissingSession.noSession(engine.config().dataDir(), id));
        }
        throw new Refused(dev.runboard.session.SessionId.ambiguous(id, matches.stream().map(Session::id).toList()));
    }
}
