package dev.runboard.session;

import java.time.Instant;
import java.util.List;

/**
 * What a tree kill did: the signal sent once to the group (and to the session's processes outside
 * it), whether it had to escalate to SIGKILL after the grace, and which processes, if any, survived.
 *
 * <p>{@code survivors} is every process of the session still alive when the kill ended, read from
 * /proc (a zombie has ended): those SIGKILL could not end and those runboard would not signal.
 * {@code not_ours} names the session's processes that belong to another user: runboard never
 * signals them, even as root, so while they live they are survivors too. {@code notes} says, one
 * sentence each, what the kill deliberately did not do (a group left alone because its leader's
 * pid now names another process).
 */
public record KillReport(
        String reason,
        String signal,
        long graceMillis,
        Instant requestedAt,
        long processGroup,
        List<ProcessRef> signalled,
        boolean escalatedToKill,
        List<ProcessRef> killedAfterGrace,
        List<ProcessRef> sweptByTag,
        Instant finishedAt,
        List<ProcessRef> survivors,
        List<ProcessRef> notOurs,
        List<String> notes) {

    public KillReport {
        signalled = List.copyOf(signalled);
        killedAfterGrace = List.copyOf(killedAfterGrace);
        sweptByTag = List.copyOf(sweptByTag);
        survivors = List.copyOf(survivors);
        notOurs = notOurs == null ? List.of() : List.copyOf(notOurs); // absent from records written before
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    public long durationMillis() {
        return java.time.Duration.between(requestedAt, finishedAt).toMillis();
    }

    public boolean clean() {
        return survivors.isEmpty();
    }

    /** One line for a status bar or a CLI: "TERM to 12 processes, KILL after 2000 ms to 1, 0 survivors". */
    public String summary() {
        StringBuilder sb = new StringBuilder(signal).append(" to ").append(signalled.size())
                .append(signalled.size() == 1 ? " process" : " processes");
        if (escalatedToKill) {
            sb.append(", KILL after ").append(graceMillis).append(" ms to ").append(killedAfterGrace.size());
        }
        if (!sweptByTag.isEmpty()) {
            sb.append(", ").append(sweptByTag.size()).append(" escaped the group and were swept by tag");
        }
        sb.append(", ").append(survivors.size()).append(survivors.size() == 1 ? " survivor" : " survivors");
        if (!notOurs.isEmpty()) {
            sb.append(" (").append(notOurs.size()).append(notOurs.size() == 1 ? " process" : " processes")
                    .append(" of another user left alone)");
        }
        for (String note : notes) {
            sb.append("; ").append(note);
        }
        return sb.toString();
    }
}
