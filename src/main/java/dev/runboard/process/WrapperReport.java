package dev.runboard.process;

import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessRef;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * A kill as the session's wrapper reports it (runboard-wrap.pl, the one kill: docs/PROCESS-TREE.md),
 * one fact a line: {@code requested_at}, {@code signal}, {@code grace_ms}, {@code term_at},
 * {@code done_at}, {@code own_exit}, then {@code term}, {@code kill}, {@code escaped},
 * {@code not_ours} and {@code survivor} lines of a pid, its start time and its command, and
 * {@code note} lines. The same text comes from a local kill, a remote host's and the wrapper's own
 * deadline (below its status line), so every path reads it here.
 *
 * @param ownExit the command had ended before the kill's first signal: it keeps its own status
 */
public record WrapperReport(KillReport report, boolean ownExit) {

    /** A process the report names, with its start time (so a pid reused since is not taken for it). */
    private record Listed(long pid, long startTicks, String command) {
        ProcessRef ref() {
            return new ProcessRef(pid, command);
        }
    }

    /**
     * Reads the report's lines; null when they hold no kill (no {@code term_at}). {@code stillAlive}
     * says whether a listed process (pid, start time) lives now: the report's survivors are exactly
     * those of its listed survivors and other users' processes that do, so it says what is left, not
     * what once was. Lines it does not know (a newer wrapper's) are skipped, as is a line cut short.
     */
    public static WrapperReport parse(String text, String reason, long processGroup, BiPredicate<Long, Long> stillAlive) {
        Instant requestedAt = null;
        Instant termAt = null;
        Instant doneAt = null;
        String signal = "TERM";
        long graceMillis = 0;
        boolean ownExit = false;
        List<ProcessRef> termed = new ArrayList<>();
        List<ProcessRef> killed = new ArrayList<>();
        List<ProcessRef> escaped = new ArrayList<>();
        List<ProcessRef> survivors = new ArrayList<>();
        List<ProcessRef> notOurs = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (String line : text.split("\n")) {
            String[] f = line.split(" ", 2);
            String rest = f.length > 1 ? f[1] : "";
            try {
                switch (f[0]) {
                    case "requested_at" -> requestedAt = Instant.ofEpochMilli(Long.parseLong(rest.strip()));
                    case "term_at" -> termAt = Instant.ofEpochMilli(Long.parseLong(rest.strip()));
                    case "done_at" -> doneAt = Instant.ofEpochMilli(Long.parseLong(rest.strip()));
                    case "signal" -> signal = rest.strip();
                    case "grace_ms" -> graceMillis = Long.parseLong(rest.strip());
                    case "own_exit" -> ownExit = true;
                    case "term" -> termed.add(listed(rest).ref());
                    case "kill" -> killed.add(listed(rest).ref());
                    case "escaped" -> escaped.add(listed(rest).ref());
                    case "survivor", "not_ours" -> {
                        Listed p = listed(rest);
                        if (stillAlive.test(p.pid(), p.startTicks())) {
                            survivors.add(p.ref());
                            if (f[0].equals("not_ours")) {
                                notOurs.add(p.ref());
                            }
                        }
                    }
                    case "note" -> notes.add(rest);
                    default -> { } // a fact a newer wrapper knows
                }
            } catch (RuntimeException malformed) {
                // a line cut short: the report keeps what could be read
            }
        }
        if (termAt == null) {
            return null;
        }
        if (requestedAt == null) {
            requestedAt = termAt;
        }
        KillReport report = new KillReport(reason, signal, graceMillis, requestedAt, processGroup, termed,
                !killed.isEmpty(), killed, escaped, doneAt != null ? doneAt : termAt, survivors, notOurs, notes);
        return new WrapperReport(report, ownExit);
    }

    /** The same report with one more note (where the kill ran: a host, a Slurm job). */
    public WrapperReport withNote(String note) {
        KillReport k = report;
        List<String> notes = new ArrayList<>(k.notes());
        notes.add(note);
        return new WrapperReport(new KillReport(k.reason(), k.signal(), k.graceMillis(), k.requestedAt(), k.processGroup(),
                k.signalled(), k.escalatedToKill(), k.killedAfterGrace(), k.sweptByTag(), k.finishedAt(), k.survivors(),
                k.notOurs(), notes), ownExit);
    }

    /** The report's grace as a duration. */
    public Duration grace() {
        return Duration.ofMillis(report.graceMillis());
    }

    /** "PID START COMMAND" (the command may hold spaces, or be empty). */
    private static Listed listed(String fields) {
        String[] f = fields.split(" ", 3);
        return new Listed(Long.parseLong(f[0]), Long.parseLong(f[1]), f.length > 2 ? f[2] : "");
    }
}
