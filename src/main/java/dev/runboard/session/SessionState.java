package dev.runboard.session;

import java.time.Instant;

/**
 * Everything that changes about a session, as one immutable value: a session is in exactly one
 * phase, and each phase carries its own facts (its timestamps, its pid, how it ended). A
 * {@link Session} moves from one value to the next atomically, so a snapshot or a record made from
 * one value can never mix an end with a pid from before it.
 */
public sealed interface SessionState {

    /** When the command started (for a launching one, when the session was made). */
    Instant startedAt();

    /** The leader's pid; null before the command runs. */
    Long pid();

    /** The leader's start time in clock ticks, telling it apart from a later process reusing the pid (0 if unknown). */
    long pidStartTicks();

    /** The last tree kill's report, or null. */
    KillReport killReport();

    /** The tree's peak memory and CPU time so far, or null before the first sample. */
    ResourceTotals resources();

    /** The word users see: running (or paused) for the live phases, else the outcome's. */
    SessionStatus status();

    /** What happened to it worth keeping (adoptions, end of input, watchdog and guard findings), oldest first. */
    java.util.List<SessionEvent> events();

    /**
     * Whether its readiness probe passed (false before it first did, and again while unhealthy); null
     * without a probe. Part of the value, so the probe's event and the verdict it announces are seen together.
     */
    Boolean ready();

    /** The same phase with this readiness. */
    SessionState withReady(Boolean now);

    /** A person, a deadline, a rule or a guard asked this session to end: how it is then to be recorded. */
    record EndRequest(SessionStatus why, String reason) {
        public EndRequest {
            // unknown: a remote host lost the exit status, and the follower says so before the stand-in exits
            if (why != SessionStatus.KILLED && why != SessionStatus.TIMEOUT && why != SessionStatus.FAILED
                    && why != SessionStatus.UNKNOWN) {
                throw new IllegalArgumentException("only killed, timeout, failed or unknown can be requested, not "
                        + why.word());
            }
        }
    }

    /** The phases before the command runs: no pid, no kill, no resources, no events yet. */
    sealed interface NoProcessYet extends SessionState permits Waiting, Launching {
        @Override
        default Long pid() {
            return null;
        }

        @Override
        default long pidStartTicks() {
            return 0;
        }

        @Override
        default KillReport killReport() {
            return null;
        }

        @Override
        default ResourceTotals resources() {
            return null;
        }

        @Override
        default java.util.List<SessionEvent> events() {
            return java.util.List.of();
        }
    }

    /**
     * Not started yet, on purpose: {@code PENDING} (dependencies, a delay, a restart's backoff) or
     * {@code QUEUED} (a queue slot); {@code reason} says which and until when.
     */
    record Waiting(Instant startedAt, SessionStatus status, String reason, Boolean ready) implements NoProcessYet {
        public Waiting {
            if (!status.isWaiting()) {
                throw new IllegalArgumentException("a waiting session is pending or queued, not " + status.word());
            }
        }

        @Override
        public Waiting withReady(Boolean now) {
            return new Waiting(startedAt, status, reason, now);
        }
    }

    /** Made, the command not running yet (the engine's launching phase; the status word is running). */
    record Launching(Instant startedAt, Boolean ready) implements NoProcessYet {
        @Override
        public SessionStatus status() {
            return SessionStatus.RUNNING;
        }

        @Override
        public Launching withReady(Boolean now) {
            return new Launching(startedAt, now);
        }
    }

    /**
     * The command runs; {@code endRequest} is set once somebody asked it to end (the ending phase);
     * {@code paused} while its whole tree is stopped (STOP sent, or /proc says state T).
     */
    record Running(Instant startedAt, Long pid, long pidStartTicks, EndRequest endRequest, KillReport killReport,
                   ResourceTotals resources, java.util.List<SessionEvent> events, boolean paused, Boolean ready)
            implements SessionState {
        public Running {
            events = java.util.List.copyOf(events);
        }

        /** Just launched, or rebuilt from a record: not paused, nobody asked it to end. */
        public Running(Instant startedAt, Long pid, long pidStartTicks, KillReport killReport, ResourceTotals resources,
                       java.util.List<SessionEvent> events, Boolean ready) {
            this(startedAt, pid, pidStartTicks, null, killReport, resources, events, false, ready);
        }

        @Override
        public Running withReady(Boolean now) {
            return new Running(startedAt, pid, pidStartTicks, endRequest, killReport, resources, events, paused, now);
        }

        @Override
        public SessionStatus status() {
            return paused ? SessionStatus.PAUSED : SessionStatus.RUNNING;
        }

        Running withPaused(boolean now) {
            return now == paused ? this : new Running(startedAt, pid, pidStartTicks, endRequest, killReport, resources, events, now, ready);
        }

        Running withEndRequest(EndRequest request) {
            return new Running(startedAt, pid, pidStartTicks, request, killReport, resources, events, paused, ready);
        }

        Running withKillReport(KillReport report) {
            return new Running(startedAt, pid, pidStartTicks, endRequest, report, resources, events, paused, ready);
        }

        Running withResources(ResourceTotals totals) {
            return new Running(startedAt, pid, pidStartTicks, endRequest, killReport, totals, events, paused, ready);
        }

        Running withEvent(SessionEvent event) {
            java.util.List<SessionEvent> more = new java.util.ArrayList<>(events);
            more.add(event);
            if (more.size() > SessionEvent.LIMIT) {
                more.subList(0, more.size() - SessionEvent.LIMIT).clear();
            }
            return new Running(startedAt, pid, pidStartTicks, endRequest, killReport, resources, more, paused, ready);
        }
    }

    /** Over, once and for good: how it ended is the outcome. */
    record Ended(Instant startedAt, Long pid, long pidStartTicks, SessionOutcome outcome, KillReport killReport,
                 ResourceTotals resources, java.util.List<SessionEvent> events, Boolean ready) implements SessionState {
        public Ended {
            events = java.util.List.copyOf(events);
        }

        /** An end with no readiness probe (a plain session). */
        public Ended(Instant startedAt, Long pid, long pidStartTicks, SessionOutcome outcome, KillReport killReport,
                     ResourceTotals resources, java.util.List<SessionEvent> events) {
            this(startedAt, pid, pidStartTicks, outcome, killReport, resources, events, null);
        }

        /** How it ended from {@code before}: its facts and readiness kept, the outcome added. */
        public static Ended from(SessionState before, SessionOutcome outcome) {
            return new Ended(before.startedAt(), before.pid(), before.pidStartTicks(), outcome, before.killReport(),
                    before.resources(), before.events(), before.ready());
        }

        @Override
        public Ended withReady(Boolean now) {
            return new Ended(startedAt, pid, pidStartTicks, outcome, killReport, resources, events, now);
        }

        public Ended withEvent(SessionEvent event) {
            java.util.List<SessionEvent> more = new java.util.ArrayList<>(events);
            more.add(event);
            if (more.size() > SessionEvent.LIMIT) {
                more.subList(0, more.size() - SessionEvent.LIMIT).clear();
            }
            return new Ended(startedAt, pid, pidStartTicks, outcome, killReport, resources, more, ready);
        }

        @Override
        public SessionStatus status() {
            return outcome.status();
        }
    }
}
