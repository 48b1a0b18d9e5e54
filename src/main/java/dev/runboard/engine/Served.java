package dev.runboard.engine;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionId;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * What a request's handler may use ({@link Request#answer}): the engine, which alone changes sessions,
 * the stacks' orchestration, the supervisor's own facts, and the sessions a request names.
 *
 * @param startArguments exec's options and command parsed into a spec (the CLI's own parser)
 * @param execExits what exec clients reported of their wrappers' ends, by session id, until the record is final
 */
record Served(SessionEngine engine, Supervisor supervisor, StackRequests stack, ListIndex listIndex,
              ThinClientCall thinClient, Function<List<String>, SessionSpec> startArguments,
              Map<String, CompletableFuture<Void>> execExits) {

    /** The session {@code id} names: the whole id, or the only id starting with it. */
    Session session(String id) throws SupervisorRequests.Refused {
        if (id == null || id.isEmpty()) {
            throw new SupervisorRequests.Refused("no session id given");
        }
        if (id.length() > SessionId.MAX_LENGTH) {
            // No id is this long; quoted, at most 80 characters: a 4 MiB id made a refusal of 8 MB.
            throw new SupervisorRequests.Refused(SessionId.quote(id) + " is not a session id (at most "
                    + SessionId.MAX_LENGTH + " characters)");
        }
        List<Session> matches = engine.matching(id);
        if (matches.size() == 1) {
            return matches.get(0);
        }
        if (matches.isEmpty()) {
            throw new SupervisorRequests.Refused(dev.runboard.store.MissingSession.noSession(engine.config().dataDir(), id));
        }
        throw new SupervisorRequests.Refused(SessionId.ambiguous(id, matches.stream().map(Session::id).toList()));
    }

    /** The running session {@code id} names; refused when it has ended or never started. */
    Session running(String id) throws SupervisorRequests.Refused {
        Session session = session(id);
        if (session.status().isTerminal() || session.pid() == null) {
            throw new SupervisorRequests.Refused("session " + session.id() + " is not running (" + session.status().word() + ")");
        }
        return session;
    }

    /** The session's snapshot; with {@code reveal} its secret environment values as given (the client asked, --reveal). */
    static SessionSnapshot shown(Session session, boolean reveal) {
        SessionSnapshot snapshot = session.snapshot();
        return reveal ? snapshot.revealed(session.spec().env()) : snapshot;
    }

    /** The session's snapshot as {@code show} and {@code list} reply with it: a running one's live usage with it. */
    ShownSnapshot shownLive(Session session, boolean reveal) {
        return ShownSnapshot.of(shown(session, reveal), LiveUsage.ofLive(session, engine.insight(session)));
    }

    /** The session's final snapshot, once it has ended and its record is final. */
    static SessionSnapshot ended(Session session) throws InterruptedException, java.util.concurrent.ExecutionException {
        CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
        session.addListener(ended::complete);
        return ended.get();
    }
}
