package dev.runboard.process;

import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * An engine's kills: each asks the session's wrapper to end its whole tree ({@link TreeKill}, or
 * the remote host's same kill) on a worker thread and records the {@link KillReport}. One kill per
 * session at a time: a second request while one is in flight gets the same report (a KILL then
 * cuts the grace short). The request is on disk before the first signal, so a session another
 * runboard manages is killed from here too, and its manager records how it ended.
 */
final class SessionKills {
    /** How long killAll waits beyond the grace for the sweep and the final record. */
    private static final Duration KILL_ALL_SLACK = Duration.ofSeconds(10);

    private final SessionEngine engine;
    private final Map<String, CompletableFuture<KillReport>> kills = new ConcurrentHashMap<>();

    SessionKills(SessionEngine engine) {
        this.engine = engine;
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

    /**
     * Ends the tree; {@code because} (an output rule, the watchdog, a guard) becomes the kill report's
     * and the outcome's reason. An ended session whose wrapper still holds processes it left behind
     * ({@code lingering}) is killed too: its status stays the command's.
     */
    CompletableFuture<KillReport> end(Session session, Signal signal, Duration grace, SessionStatus why,
                                      String because) {
        boolean lingering = session.status().isTerminal() && !session.snapshot().lingering().isEmpty();
        if (session.status().isTerminal() && !lingering) {
            return CompletableFuture.failedFuture(new IllegalStateException("session " + session.id() + " already ended ("
                    + session.status().word() + ")"));
        }
        if (session.pid() == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("session " + session.id() + " never started"));
        }
        if (because == null && why == SessionStatus.KILLED && session.slurm() != null && session.slurm().isPending()) {
            because = dev.runboard.session.SlurmJob.CANCELLED_BEFORE_START; // Slurm held it: its command never ran
        }
        String reason = because != null ? because : why == SessionStatus.TIMEOUT ? timeoutReason(session) : "killed on request";
        CompletableFuture<KillReport> fresh = new CompletableFuture<>();
        CompletableFuture<KillReport> inFlight = kills.putIfAbsent(session.id(), fresh);
        if (inFlight != null) {
            if (signal == Signal.KILL) {
                run(session, Signal.KILL, Duration.ZERO, why, reason); // "kill now" during another kill's grace
            }
            return inFlight;
        }
        boolean managedHere = engine.managesHere(session);
        if (managedHere && !lingering) {
            // The outcome unless the wrapper finds the command ended before the first signal (own exit wins).
            session.requestEnd(why, because);
        }
        engine.workers().execute(() -> {
            try {
                WrapperReport done = run(session, signal, grace, why, reason);
                if (!lingering && !done.ownExit()) {
                    session.recordKill(done.report()); // a sweep after the command's own end is not how it ended
                    if (managedHere) {
                        engine.save(session);
                    }
                }
                if (lingering) {
                    engine.lingering().refresh();
                }
                fresh.complete(done.report());
            } catch (RuntimeException | Error e) {
                fresh.completeExceptionally(e);
            } finally {
                kills.remove(session.id(), fresh);
            }
        });
        return fresh;
    }

    private WrapperReport run(Session session, Signal signal, Duration grace, SessionStatus why, String reason) {
        return session.spec().isRemote()
                ? engine.remote().kill(session, signal, grace, why, reason)
                : engine.treeKill().kill(session, signal, grace, why, reason, engine.held(session));
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
