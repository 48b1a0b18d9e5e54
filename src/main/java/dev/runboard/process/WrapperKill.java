package dev.runboard.process;

import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The tree kill a session's wrapper did when its deadline passed, as it wrote it below the status
 * line ({@code term_at}, then {@code term}, {@code kill} and {@code survivor} lines of a pid and its
 * command). Read back into a {@link KillReport}, so a timeout enforced while no runboard watched
 * reads like one runboard enforced.
 */
record WrapperKill(Instant termAt, List<ProcessRef> termed, List<ProcessRef> killed, List<ProcessRef> survivors) {

    /** The wrapper's kill facts, or empty when it wrote none (the command ended by itself, or an older wrapper). */
    static Optional<WrapperKill> read(Path statusFile) {
        List<String> lines;
        try {
            lines = Files.readAllLines(statusFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return Optional.empty();
        }
        Instant termAt = null;
        List<ProcessRef> termed = new ArrayList<>();
        List<ProcessRef> killed = new ArrayList<>();
        List<ProcessRef> survivors = new ArrayList<>();
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.split(" ", 3);
            try {
                switch (f[0]) {
                    case "term_at" -> termAt = Instant.ofEpochMilli(Long.parseLong(f[1]));
                    case "term" -> termed.add(ref(f));
                    case "kill" -> killed.add(ref(f));
                    case "survivor" -> survivors.add(ref(f));
                    default -> { } // a fact a newer wrapper knows
                }
            } catch (RuntimeException malformed) {
                // a line cut short: the report keeps what could be read
            }
        }
        return termAt == null ? Optional.empty() : Optional.of(new WrapperKill(termAt, termed, killed, survivors));
    }

    private static ProcessRef ref(String[] fields) {
        return new ProcessRef(Long.parseLong(fields[1]), fields.length > 2 ? fields[2] : "");
    }

    /**
     * The report of this kill; survivors are those the wrapper gave up on that are still alive now
     * (checked against /proc: the report says what is left, not what once was).
     */
    KillReport report(String reason, Duration grace, long processGroup, Instant finishedAt, OsProcesses os) {
        List<ProcessRef> alive = survivors.stream().filter(p -> os.isAlive(p.pid())).toList();
        return new KillReport(reason, Signal.TERM.name(), grace.toMillis(), termAt, processGroup, termed,
                !killed.isEmpty(), killed, List.of(), finishedAt == null ? termAt : finishedAt, alive, List.of(), List.of());
    }
}
