package dev.runboard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.stack.Orchestrator;
import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The supervisor's answers for stacks (issue #17), one method per request as in
 * {@link SupervisorRequests}: {@code up}, {@code down}, {@code queue}, and the placement of an
 * ad-hoc start ({@code --queue}, {@code --after}). The orchestration itself is the supervisor's
 * {@link Orchestrator}, so it holds with every client gone.
 */
final class StackRequests {
    /** How long {@code up --wait} waits at most for every command to be ready or over. */
    private static final Duration WAIT_LIMIT = Duration.ofHours(24);
    static final List<String> CONDITIONS = dev.runboard.workspace.WorkspaceCommand.CONDITIONS;

    private final SessionEngine engine;
    private final Orchestrator stack;

    StackRequests(SessionEngine engine, Orchestrator stack) {
        this.engine = engine;
        this.stack = stack;
    }

    void register(Map<String, SupervisorRequests.Handler> handlers) {
        handlers.put("up", this::up);
        handlers.put("down", this::down);
        handlers.put("queue", this::queue);
    }

    /**
     * {@code up}: starts the commands, then with {@code wait} ({@code --wait}: ready or settled) or
     * {@code until_ended} waits, and answers with each command's latest run as it stands then (its status
     * and reason: a restart or a skip after the start is what the person needs to see), the failures,
     * and the {@code disabled} commands that got no session. {@code abort_on_failure} stops the stack at
     * the first failure (and waits as {@code until_ended} when no wait was asked).
     */
    private ObjectNode up(JsonNode request) throws Exception {
        Path file = file(request);
        Workspace ws = load(file);
        boolean noDeps = request.path("no_deps").asBoolean(false);
        List<String> names = names(request);
        List<Session> sessions = stack.up(ws, file.toString(), names, environment(request), request.path("force").asBoolean(false),
                noDeps, request.path("restart_running").asBoolean(false));
        boolean abort = request.path("abort_on_failure").asBoolean(false);
        Orchestrator.WaitFor waitFor = request.path("until_ended").asBoolean(false) ? Orchestrator.WaitFor.ENDED
                : request.path("wait").asBoolean(false) ? Orchestrator.WaitFor.READY
                : abort ? Orchestrator.WaitFor.ENDED : null;
        ObjectNode reply = Protocol.ok();
        ArrayNode failed = null;
        if (waitFor != null) {
            Duration settle = request.has("settle_ms") ? Duration.ofMillis(Math.max(0, request.path("settle_ms").asLong()))
                    : Orchestrator.DEFAULT_SETTLE;
            Orchestrator.Settled settled = stack.await(sessions, WAIT_LIMIT, waitFor, settle, abort);
            sessions = settled.sessions();
            failed = reply.putArray("failed");
            settled.failed().forEach(failed::add);
            reply.put("aborted", settled.aborted());
        }
        ArrayNode list = reply.putArray("sessions");
        for (Session s : sessions) {
            ObjectNode o = list.addObject().put("name", s.stack().name()).put("id", s.id()).put("status", s.status().word());
            String reason = s.status().isWaiting() ? s.waitingReason()
                    : s.status() == dev.runboard.session.SessionStatus.SKIPPED ? s.snapshot().reason() : null;
            if (reason != null) {
                o.put("reason", reason);
            }
        }
        ArrayNode disabled = reply.putArray("disabled");
        Orchestrator.disabledAmong(ws, names, noDeps).forEach(disabled::add);
        return reply;
    }

    private ObjectNode down(JsonNode request) throws Exception {
        Path file = file(request);
        List<String> names = names(request);
        if (!names.isEmpty()) {
            Workspace ws = load(file);
            for (String n : names) {
                if (!ws.commands().containsKey(n) && (n.isEmpty() || !ws.groups().containsKey(n))) {
                    throw new SupervisorRequests.Refused(ws.unknownName(n));
                }
            }
        }
        List<String> stopped = stack.down(file.toString(), names);
        if (stopped.isEmpty() && !java.nio.file.Files.isRegularFile(file)) {
            // A mistyped -f: said as up says it. (What runs from a file removed since up is still stopped above.)
            throw new SupervisorRequests.Refused(noFile(file));
        }
        ObjectNode reply = Protocol.ok();
        ArrayNode list = reply.putArray("stopped");
        stopped.forEach(list::add);
        return reply;
    }

    private ObjectNode queue(JsonNode request) throws Exception {
        String name = request.path("name").asText("");
        if (name.isBlank()) {
            throw new SupervisorRequests.Refused("queue needs a name");
        }
        stack.setParallel(name, request.path("parallel").asInt(0));
        return Protocol.ok();
    }

    /**
     * Starts {@code spec} placed as asked (in a queue, after other sessions, or neither): every start a
     * supervisor serves goes through the orchestrator's one path to a launched wrapper.
     */
    Session startPlaced(SessionSpec spec, String queue, List<String> after, Map<String, String> environment)
            throws SupervisorRequests.Refused {
        Map<String, String> deps = new LinkedHashMap<>();
        for (String a : after) {
            int colon = a.lastIndexOf(':');
            String id = colon < 0 ? a : a.substring(0, colon);
            String condition = colon < 0 ? "succeeded" : a.substring(colon + 1);
            if (!CONDITIONS.contains(condition)) {
                throw new SupervisorRequests.Refused("--after " + a + ": '" + condition
                        + "' is not a condition (write ID, or ID:started, ID:ready, ID:succeeded or ID:ended)");
            }
            deps.put(resolve(id), condition);
        }
        return stack.startAdHoc(spec, queue == null || queue.isBlank() ? null : queue, deps, environment);
    }

    /** Why a waiting session a person killed (or removed) ended without running. */
    static final String CANCELLED = "cancelled before it started";

    /** Ends a waiting session as a person's kill; false when it does not wait. */
    boolean cancel(Session session) {
        return session.status().isWaiting() && stack.cancel(session, CANCELLED);
    }

    private String resolve(String idOrPrefix) throws SupervisorRequests.Refused {
        List<Session> matches = engine.matching(idOrPrefix);
        if (matches.size() != 1) {
            throw new SupervisorRequests.Refused(matches.isEmpty() ? "--after: no session " + idOrPrefix + " (see runboard list)"
                    : "--after: " + dev.runboard.session.SessionId.ambiguous(idOrPrefix, matches.stream().map(Session::id).toList()));
        }
        return matches.get(0).id();
    }

    /** {@code --queue NAME} and {@code --after ID[:COND]} (repeatable) among a start's arguments, before {@code --}. */
    static Map.Entry<String, List<String>> placementIn(List<String> argv) {
        String queue = null;
        List<String> after = new ArrayList<>();
        for (int i = 0; i < argv.size(); i++) {
            String a = argv.get(i);
            if (a.equals("--")) {
                break;
            }
            String next = i + 1 < argv.size() ? argv.get(i + 1) : null;
            if (a.equals("--queue") && next != null) {
                queue = next;
                i++;
            } else if (a.startsWith("--queue=")) {
                queue = a.substring("--queue=".length());
            } else if (a.equals("--after") && next != null) {
                after.add(next);
                i++;
            } else if (a.startsWith("--after=")) {
                after.add(a.substring("--after=".length()));
            }
        }
        return Map.entry(queue == null ? "" : queue, after);
    }

    private static Path file(JsonNode request) throws SupervisorRequests.Refused {
        String f = request.path("file").asText("");
        if (f.isEmpty()) {
            throw new SupervisorRequests.Refused("no workspace file given");
        }
        return Path.of(f).toAbsolutePath().normalize();
    }

    private static Workspace load(Path file) throws SupervisorRequests.Refused {
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new SupervisorRequests.Refused(noFile(file));
        }
        try {
            return Workspace.read(file);
        } catch (WorkspaceException e) {
            throw new SupervisorRequests.Refused(e.withWholePath() + " (fix the file and try again)");
        }
    }

    private static String noFile(Path file) {
        return "no workspace file " + file + " (write one, or give -f FILE)";
    }

    private static List<String> names(JsonNode request) {
        List<String> names = new ArrayList<>();
        request.path("names").forEach(n -> names.add(n.asText()));
        return names;
    }

    private static Map<String, String> environment(JsonNode request) {
        if (!request.hasNonNull("environment")) {
            return null;
        }
        Map<String, String> environment = new java.util.HashMap<>();
        request.get("environment").fields().forEachRemaining(f -> environment.put(f.getKey(), f.getValue().asText()));
        return environment;
    }
}
