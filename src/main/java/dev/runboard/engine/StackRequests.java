package dev.runboard.engine;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.stack.Orchestrator;
import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the requests about stacks (issue #17) share: the supervisor's {@link Orchestrator}, so that a stack
 * holds with every client gone ({@link UpRequest}, {@link DownRequest}, {@link QueueRequest}), the placement of
 * an ad-hoc start ({@code --queue}, {@code --after}), and a waiting session's cancelling kill.
 */
final class StackRequests {
    static final List<String> CONDITIONS = dev.runboard.workspace.WorkspaceCommand.CONDITIONS;

    private final SessionEngine engine;
    private final Orchestrator stack;

    StackRequests(SessionEngine engine, Orchestrator stack) {
        this.engine = engine;
        this.stack = stack;
    }

    Orchestrator orchestrator() {
        return stack;
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

    /** A request's workspace file, absolute; refused when none was given. */
    static Path file(String f) throws SupervisorRequests.Refused {
        if (f == null || f.isEmpty()) {
            throw new SupervisorRequests.Refused("no workspace file given");
        }
        return Path.of(f).toAbsolutePath().normalize();
    }

    static Workspace load(Path file) throws SupervisorRequests.Refused {
        if (!java.nio.file.Files.isRegularFile(file)) {
            throw new SupervisorRequests.Refused(noFile(file));
        }
        try {
            return Workspace.read(file);
        } catch (WorkspaceException e) {
            throw new SupervisorRequests.Refused(e.withWholePath() + " (fix the file and try again)");
        }
    }

    static String noFile(Path file) {
        return "no workspace file " + file + " (write one, or give -f FILE)";
    }
}
