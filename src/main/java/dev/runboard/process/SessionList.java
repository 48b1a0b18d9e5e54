package dev.runboard.process;

import dev.runboard.session.RunEstimate;
import dev.runboard.session.RunHistory;
import dev.runboard.session.RunKey;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The sessions an engine knows, oldest first, and who is told when one joins or leaves. Thread-safe:
 * sessions join from the starting thread, from history loading and from the store watcher.
 */
final class SessionList {
    private final List<Session> sessions = new CopyOnWriteArrayList<>();
    /** The same sessions by id: the window's poller looks each running one up on every tick. */
    private final Map<String, Session> byId = new ConcurrentHashMap<>();
    /** Ids being created right now: their folders exist before their sessions join the list. */
    private final Set<String> reserved = ConcurrentHashMap.newKeySet();
    private final List<Consumer<Session>> addListeners = new CopyOnWriteArrayList<>();
    private final List<Consumer<Session>> removeListeners = new CopyOnWriteArrayList<>();

    List<Session> all() {
        return List.copyOf(sessions);
    }

    Optional<Session> find(String id) {
        return Optional.ofNullable(byId.get(id));
    }

    void reserve(String id) {
        reserved.add(id);
    }

    void release(String id) {
        reserved.remove(id);
    }

    /** Whether the id is in the list or being created: the store watcher must not load it a second time. */
    boolean knows(String id) {
        return reserved.contains(id) || find(id).isPresent();
    }

    void add(Session session) {
        if (session.outcome() == null) {
            session.expect(estimate(RunKey.of(session.spec()), List.of()));
        }
        byId.put(session.id(), session);
        sessions.add(session);
        reserved.remove(session.id());
        addListeners.forEach(l -> l.accept(session));
    }

    /**
     * Adds these sessions, in order, as one change of the list: a history of 10,000 added one at a
     * time copied the copy-on-write list 10,000 times (200 MB of garbage for the heap to grow by).
     */
    void addAll(List<Session> added) {
        List<Session> before = new ArrayList<>(added.size());
        for (Session session : added) {
            if (session.outcome() == null) {
                // Judged by the runs before it, as if added one at a time: the owner's estimate is the same.
                session.expect(estimate(RunKey.of(session.spec()), before));
            }
            byId.put(session.id(), session);
            before.add(session);
        }
        sessions.addAll(added);
        for (Session session : added) {
            reserved.remove(session.id());
            addListeners.forEach(l -> l.accept(session));
        }
    }

    void remove(Session session) {
        if (sessions.remove(session)) {
            byId.remove(session.id(), session);
            removeListeners.forEach(l -> l.accept(session));
        }
    }

    /**
     * The ended runs of one command among the sessions known, oldest first: what a new run's
     * progress is judged by. Both the owner and a client build it from the same list, so both show
     * the same estimate.
     */
    RunHistory history(RunKey key) {
        return history(key, List.of());
    }

    /** A new run's estimate from the ended runs of its command, the list's and then {@code more}. */
    private RunEstimate estimate(RunKey key, List<Session> more) {
        return RunEstimate.from(history(key, more), this::shareAtMidpoint);
    }

    /**
     * What part of a run's output it had printed at half its duration, read from its time index; NaN
     * when that cannot be told (no index, no output, the session gone).
     */
    private double shareAtMidpoint(dev.runboard.session.Run run) {
        Session session = byId.get(run.id());
        SessionSnapshot s = session == null ? null : session.snapshot(false);
        if (s == null || s.rawOutput() == null || run.startedAt() == null || run.durationSeconds() == null
                || run.outputBytes() <= 0) {
            return Double.NaN;
        }
        try {
            dev.runboard.artifact.TimeIndex index = dev.runboard.artifact.TimeIndex.read(java.nio.file.Path.of(s.rawOutput()));
            if (index.isEmpty()) {
                return Double.NaN;
            }
            long midpoint = run.startedAt().toEpochMilli() + Math.round(run.durationSeconds() * 500);
            return (double) index.bytesAt(midpoint) / run.outputBytes();
        } catch (java.io.IOException | RuntimeException e) {
            return Double.NaN; // an estimate is a hint: a file that cannot be read leaves it to the even guess
        }
    }

    /** As {@link #history(RunKey)}, with {@code more} sessions after those of the list. */
    private RunHistory history(RunKey key, List<Session> more) {
        List<SessionSnapshot> ended = new ArrayList<>();
        for (List<Session> list : List.of(sessions, more)) {
            for (Session s : list) {
                if (s.outcome() != null && key.equals(RunKey.of(s.spec()))) {
                    ended.add(s.snapshot(false));
                }
            }
        }
        return RunHistory.of(key, ended);
    }

    void onAdd(Consumer<Session> listener) {
        addListeners.add(listener);
    }

    void onRemove(Consumer<Session> listener) {
        removeListeners.add(listener);
    }
}
