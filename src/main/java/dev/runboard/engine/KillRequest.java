package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.KillReport;
import dev.runboard.session.Session;
import dev.runboard.session.Signal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code kill}: the session's whole tree, {@code signal} first (TERM when absent), KILL after
 * {@code grace_ms} (the session's own grace when absent). Answered with the kill report once the
 * session's record is final, so that a client's next look sees the end. A waiting session ends killed
 * without running; an ended one whose wrapper holds processes it left behind (lingering) is killed too.
 */
@JsonTypeName("kill")
record KillRequest(String id, String signal, Long graceMs) implements Request<KillRequest.Reply> {
    /** What the kill did; {@code warning} when the session's record was not final in time (null: it was). */
    record Reply(KillReport report, String warning) implements Protocol.Reply {
    }

    /** How long a kill may take beyond its grace before the reply gives up waiting for the final record. */
    private static final Duration SLACK = Duration.ofSeconds(15);

    @Override
    public Reply answer(Served served) throws Exception {
        Session waiting = served.session(id);
        String first = signal == null ? "TERM" : signal;
        java.time.Instant asked = java.time.Instant.now();
        if (served.stack().cancel(waiting)) {
            // It waited: ended killed without running. The report says so: nothing was there to signal.
            KillReport cancelled = new KillReport(StackRequests.CANCELLED, first, 0, asked, 0,
                    List.of(), false, List.of(), List.of(), java.time.Instant.now(), List.of(), List.of(),
                    List.of("it had not started: nothing was running to signal"));
            return new Reply(cancelled, null);
        }
        Session found = served.session(id);
        Session session = found.status().isTerminal() && !found.lingering().isEmpty() ? found : served.running(id);
        Signal parsed = Signal.parse(first);
        Duration grace = graceMs != null ? Duration.ofMillis(graceMs) : session.spec().grace();
        if (grace.isNegative()) {
            throw new SupervisorRequests.Refused("the grace must not be negative");
        }
        CompletableFuture<Object> ended = new CompletableFuture<>();
        session.addListener(ended::complete);
        KillReport report = served.engine().kill(session, parsed, grace).get();
        try {
            ended.get(grace.toMillis() + SLACK.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return new Reply(report, "the session had not ended " + SLACK.toSeconds() + " s after the kill");
        }
        return new Reply(report, null);
    }
}
