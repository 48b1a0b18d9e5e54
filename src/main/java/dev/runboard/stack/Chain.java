package dev.runboard.stack;

import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The runs of one command in one stack: its current session (waiting, running or ended), and
 * what is settled about the chain as a whole for those that depend on it — whether it ever
 * started, became ready or succeeded, and whether it is over (ended, no further restart). Changed
 * only on the orchestration's thread; {@link Readiness} reports from the probe pool.
 */
final class Chain implements Dependency {
    final StackCommand command;
    /** What this chain waits for, by the name used in its reasons. */
    final Map<String, Dependency> dependencies = new LinkedHashMap<>();
    /** The client environment the command starts from (the {@code up} caller's). */
    final Map<String, String> environment;
    Session current;
    /** Restarts since the count was last reset (the {@code limit} applies to these); read by the probe pool too. */
    volatile int restartsSinceReset;
    /** The earliest start of the current (waiting) session: a delay or a restart's backoff; null: none yet. */
    Instant notBefore;
    /** Whether {@link #notBefore} is a restart's backoff (else the command's delay). */
    boolean restarting;
    Readiness readiness;
    /** A running session of the same command that up --force stopped: this chain's first run waits for its end. */
    Session replaces;
    /** The current run's liveness probe, or null. */
    Liveness liveness;
    boolean everStarted;
    boolean everReady;
    boolean readyTimedOut;
    boolean succeeded;
    /** Ended for good: no further run. */
    boolean over;
    /** {@code down} or a person stopped it: never restarted. */
    volatile boolean stopped;
    /** How the last run ended, for reasons ("failed (exit 1)"). */
    String lastEnd;

    Chain(StackCommand command, Map<String, String> environment) {
        this.command = command;
        this.environment = environment;
    }

    String name() {
        return command.name() != null ? command.name() : current.id();
    }

    String group() {
        return command.group();
    }

    boolean waiting() {
        return current != null && current.status().isWaiting();
    }

    boolean running() {
        return current != null && !current.status().isTerminal() && !current.status().isWaiting();
    }

    @Override
    public String label() {
        return name();
    }

    @Override
    public boolean met(String condition) {
        return switch (condition) {
            case "started" -> everStarted;
            case "ready" -> command.ready() == null ? everStarted : everReady;
            // Its current run: a dependency that restarts (restart: always after an exit 0) has not succeeded
            // until the run it is on now has ended completed and no other follows. "No other follows" is decided
            // when the orchestrator handles the end (over, or a new current run): a run seen completed before
            // then (it ended between two looks, or during one, before its own chain's turn) is not yet a success.
            case "succeeded" -> over && current != null && current.status() == SessionStatus.COMPLETED;
            default -> over;
        };
    }

    @Override
    public boolean never(String condition) {
        if (met(condition)) {
            return false;
        }
        if ("ready".equals(condition) && command.ready() != null && readyTimedOut) {
            return true;
        }
        return over;
    }

    @Override
    public String why() {
        if (readyTimedOut && !everReady) {
            return "not ready within " + dev.runboard.session.Durations.format(command.ready().timeoutOrDefault());
        }
        return lastEnd == null ? "it ended" : lastEnd;
    }

    /**
     * Whether a run of this chain that ends now as a failure at {@code endedAt} would be followed by
     * another (its policy, the restart count, {@code reset_after}): its reason must not promise a restart
     * that will not come. Read from the probe pool; the fields it reads are volatile.
     */
    boolean restartsAfterFailure(Session run, Instant endedAt) {
        if (stopped || "never".equals(command.restart())) {
            return false;
        }
        int limit = command.backoff().limitOrDefault();
        Instant startedAt = run.startedAt();
        boolean reset = startedAt != null
                && java.time.Duration.between(startedAt, endedAt).compareTo(command.backoff().resetAfterOrDefault()) >= 0;
        return reset ? limit > 0 : restartsSinceReset < limit;
    }

    /** "will not succeed": what a dependency's condition can no longer become, for the reasons of those waiting on it. */
    static String cannot(String condition) {
        return switch (condition) {
            case "started" -> "will not start";
            case "ready" -> "will not be ready";
            case "succeeded" -> "will not succeed";
            default -> "will not end";
        };
    }

    /** "failed (exit 1)", "killed", "skipped": how a run ended, for the reasons of those waiting on it. */
    static String describeEnd(Session s) {
        SessionStatus st = s.status();
        var o = s.outcome();
        if (o != null && o.exitCode() != null && st != SessionStatus.COMPLETED) {
            return st.word() + " (exit " + o.exitCode() + ")";
        }
        if (o != null && o.signal() != null) {
            return st.word() + " (" + o.signal() + ")";
        }
        return st.word();
    }
}
