package dev.runboard.process;

import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionStore;
import dev.runboard.store.StoreException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An engine's kills: each ends a session's whole tree ({@link ProcessTreeKiller}) on a worker
 * thread and records the {@link KillReport}. One kill per session at a time: a second request
 * while one is in flight gets the same report. A session another runboard manages is killed from
 * here too, with a note in the store so its manager records it as killed.
 */
final class SessionKills {
    /** How long killAll waits beyond the grace for the sweep and the final record. */
    private static final Duration KILL_ALL_SLACK = Duration.ofSeconds(10);

    private final SessionEngine engine;
    private final ProcessTreeKiller killer;
    private final Map<String, CompletableFuture<KillReport>> kills = new ConcurrentHashMap<>();

    SessionKills(SessionEngine engine) {
        this.engine = engine;
        this.killer = new ProcessTreeKiller(engine.os(), engine.config().clock());
    }

    /** See {@link SessionEngine#killAll(Duration)}. */
    void killAll(Duration grace) {
        List<CompletableFuture<?>> all = new ArrayList<>();
        for (Session s : engine.sessions()) {
            if (!s.status().isTerminal() && s.pid() != null) {
                CompletableFuture<Object> ended = new CompletableFuture<>();
                s.addListener(ended::complete);
                all.add(end(s, Signal.TERM, grace, SessionStatus.KILLED));
                if (engine.managesHere(s)) {
                    all.add(ended); // only the manager records the end; others just kill
                }
            }
        }
        for (CompletableFuture<?> f : all) {
            try {
                f.get(grace.toMillis() + KILL_ALL_SLACK.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                engine.warn("killing all sessions: " + e.getMessage());
            }
        }
    }

    CompletableFuture<KillReport> end(Session session, Signal signal, Duration grace, SessionStatus why) {
        return end(session, signal, grace, why, null);
    }

    /** Ends the tree; {@code because} (an output rule, the watchdog, a guard) becomes the kill report's and the outcome's reason. */
    CompletableFuture<KillReport> end(Session session, Signal signal, Duration grace, SessionStatus why,
                                      String because) {
        Long pid = session.pid();
        if (session.status().isTerminal()) {
            return CompletableFuture.failedFuture(new IllegalStateException("session " + session.id() + " already ended ("
                    + session.status().word() + ")"));
        }
        if (pid == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("session " + session.id() + " never started"));
        }
        CompletableFuture<KillReport> fresh = new CompletableFuture<>();
        CompletableFuture<KillReport> inFlight = kills.putIfAbsent(session.id(), fresh);
        if (inFlight != null) {
            if (signal == Signal.KILL && !session.spec().isRemote()) {
                engine.os().signalGroup(pid, session.pidStartTicks(), Signal.KILL); // "kill now" during another kill's grace
            }
            return inFlight;
        }
        String reason = because != null ? because : why == SessionStatus.TIMEOUT ? timeoutReason(session) : "killed on request";
        boolean managedHere = engine.managesHere(session);
        // An output rule fails a session whenever it matches, even in the last lines before a clean exit.
        boolean endedOnItsOwn = why != SessionStatus.FAILED && (engine.isEnding(session)
                || ExitStatus.read(engine.store().file(session.id(), SessionStore.EXIT_STATUS)).isPresent());
        if (endedOnItsOwn) {
            // The command exited before this kill: it keeps its own status (a Kill clicked as it
            // exits 0 is not "killed", a deadline reached just after a clean exit is not "timeout").
            // The tree is still swept, for anything it left behind.
        } else if (managedHere) {
            session.requestEnd(why, because);
        } else {
            // Another runboard manages it: leave a note so it records "killed", then kill the tree from here.
            try {
                engine.store().requestKill(session.id(), reason);
            } catch (StoreException e) {
                engine.warn(e.getMessage());
            }
        }
        engine.workers().execute(() -> {
            try {
                KillReport report = session.spec().isRemote()
                        ? engine.remote().kill(session, signal, grace, reason)
                        : killer.kill(ProcessTreeKiller.Target.of(session), signal, grace, reason);
                if (!endedOnItsOwn) {
                    session.recordKill(report); // a sweep after the command's own end is not how it ended
                    if (managedHere) {
                        engine.save(session);
                    }
                }
                fresh.complete(report);
            } catch (RuntimeException | Error e) {
                fresh.completeExceptionally(e);
            } finally {
                kills.remove(session.id(), fresh);
            }
        });
        return fresh;
    }

    /** A deadline kill's reason, the same whether the engine or the session's wrapper carried it out. */
    static String timeoutReason(Session session) {
        return "timeout after " + SessionFinisher.seconds(session.spec().timeout());
    }

    /** The session's kill still in flight (its report recorded just before it completes), or null. */
    CompletableFuture<KillReport> inFlight(Session session) {
        return kills.get(session.id());
    }
}
