package dev.runboard.ui.detail;

import dev.runboard.session.KillReport;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.ui.common.Formats;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Collectors;

/** The facts column of the detail pane as words, from one snapshot; pure, so it is tested without a window. */
public record SessionFacts(String host, String pidName, String pid, String shell, String cwd, String env, String timeout, String grace, String priority,
                           String started, String ended, String exit, String reason, String killReport, String slurm) {
    private static final String NONE = "\u2014";

    /** @param elapsed the row's elapsed on the shared clock tick (drives the timeout countdown) */
    public static SessionFacts of(SessionSnapshot s, Duration elapsed) {
        return new SessionFacts(
                host(s),
                // A remote pid is a process on its host, not one of this machine's (kill it there, not here).
                s.host() == null ? "PID" : "Remote PID",
                s.pid() == null ? NONE : String.valueOf(s.pid()),
                s.shell() == null ? "none (argv run directly)" : s.shell(),
                Formats.tildePath(s.cwd()),
                env(s.env()),
                timeout(s, elapsed),
                Formats.seconds(s.graceSeconds()),
                s.nice() == 0 ? "normal" : "background (nice " + s.nice() + ")",
                Formats.dateTime(s.startedAt()),
                // No end yet: "Ended: running" read as an end; the status already says that it runs.
                s.endedAt() == null ? (s.isRunning() ? "not yet" : NONE) : Formats.dateTime(s.endedAt()),
                exit(s),
                s.reason() == null ? NONE : s.reason(),
                killReport(s.killReport()),
                slurm(s.slurm()));
    }

    /**
     * A Slurm session's job: its id, node and partition, and while Slurm holds it, why; null for a
     * session that is not a Slurm job (the row is not shown).
     */
    static String slurm(dev.runboard.session.SlurmJob job) {
        if (job == null) {
            return null;
        }
        StringBuilder sb = new StringBuilder("job ").append(job.jobId());
        if (job.node() != null) {
            sb.append(" on ").append(job.node());
        }
        if (job.partition() != null) {
            sb.append(", partition ").append(job.partition());
        }
        if (job.state() != null) {
            sb.append('\n').append(job.state().toLowerCase(java.util.Locale.ROOT));
            if (job.reason() != null) {
                sb.append(": ").append(job.reason());
            }
        }
        return sb.toString();
    }

    /** "this machine", or the host with its connection while the session runs ("build-box  (disconnected)"). */
    static String host(SessionSnapshot s) {
        if (s.host() == null) {
            return "this machine";
        }
        return s.connection() == null ? s.host() : s.host() + "  (" + s.connection() + ")";
    }

    private static String env(Map<String, String> env) {
        if (env == null || env.isEmpty()) {
            return "none";
        }
        return env.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("\n"));
    }

    private static String timeout(SessionSnapshot s, Duration elapsed) {
        if (s.timeoutSeconds() == null) {
            return "none";
        }
        // As the Elapsed column reads time: "1h 00m  (59m 18s left)", not "3600 s  (3558.0 s left)".
        Duration limit = Duration.ofMillis(Math.round(s.timeoutSeconds() * 1000));
        if (!s.isRunning()) {
            return Formats.elapsed(limit);
        }
        Duration left = limit.minus(elapsed);
        return Formats.elapsed(limit) + "  (" + Formats.elapsed(left.isNegative() ? Duration.ZERO : left) + " left)";
    }

    private static String exit(SessionSnapshot s) {
        if (s.signal() != null) {
            return "signal " + s.signal() + (s.exitCode() == null ? "" : " (exit " + s.exitCode() + ")");
        }
        return s.exitCode() == null ? NONE : String.valueOf(s.exitCode());
    }

    private static String killReport(KillReport r) {
        if (r == null) {
            return NONE;
        }
        if (r.survivors().isEmpty()) {
            return r.summary();
        }
        return r.summary() + "\n" + r.survivors().stream().map(ProcessRef::toString)
                .map(p -> "survivor " + p).collect(Collectors.joining("\n"));
    }
}
