package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.runboard.session.KillReport;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.OutputRule;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.ResourceTotals;
import dev.runboard.session.RunProgress;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.StackLink;
import dev.runboard.session.WatchSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The JSON names of the session package's values (the Contract in DESIGN.md), kept here so that
 * the domain has no Jackson. Each mix-in lends its annotations to the same-named methods of its
 * target, as if they were written there: {@link Json} registers them on every mapper. A
 * record's canonical constructor takes the accessors' names, so one annotation names a field for reading and writing alike.
 */
final class SessionMixIns {
    /** Target to mix-in. */
    static final Map<Class<?>, Class<?>> BY_TARGET = Map.of(
            SessionSnapshot.class, Snapshot.class,
            KillReport.class, Kill.class,
            ProcessRef.class, Ref.class,
            ResourceTotals.class, Resources.class,
            StackLink.class, Stack.class,
            dev.runboard.session.ShutdownStep.class, Shutdown.class,
            OutputRule.class, Rule.class,
            WatchSpec.class, Watch.class,
            dev.runboard.session.SlurmJob.class, Slurm.class,
            dev.runboard.session.SlurmTarget.class, SlurmSpec.class);

    private SessionMixIns() {
    }

    @JsonPropertyOrder({"status", "session_id", "command", "argv", "cwd", "shell", "env", "pid", "started_at",
        "ended_at", "elapsed_seconds", "timeout_seconds", "grace_seconds", "nice", "exit_code", "signal", "reason", "output",
        "output_truncated", "output_bytes", "output_original_bytes", "output_visible_bytes", "output_dropped_bytes", "last_line", "artifact",
        "artifact_error", "artifact_error_code", "capture_file", "kill_report", "resources", "events", "host", "connection",
        "lingering", "ready", "depends_on", "restarts", "previous_run", "stack_name", "stack_file",
        "progress", "progress_basis", "eta_seconds", "longer_than_usual", "slurm"})
    abstract static class Snapshot {
        @JsonProperty("status") abstract SessionStatus status();
        @JsonProperty("session_id") abstract String sessionId();
        @JsonProperty("command") abstract String command();
        @JsonProperty("argv") abstract List<String> argv();
        @JsonProperty("cwd") abstract String cwd();
        @JsonProperty("shell") abstract String shell();
        @JsonProperty("env") abstract Map<String, String> env();
        @JsonProperty("pid") abstract Long pid();
        @JsonProperty("started_at") abstract Instant startedAt();
        @JsonProperty("ended_at") abstract Instant endedAt();
        @JsonProperty("elapsed_seconds") abstract double elapsedSeconds();
        @JsonProperty("timeout_seconds") abstract Double timeoutSeconds();
        @JsonProperty("grace_seconds") abstract double graceSeconds();
        @JsonProperty("nice") abstract int nice();
        @JsonProperty("exit_code") abstract Integer exitCode();
        @JsonProperty("signal") abstract String signal();
        @JsonProperty("reason") abstract String reason();
        @JsonIgnore abstract OutputPreview preview();
        @JsonProperty("artifact") abstract String artifact();
        @JsonProperty("artifact_error") abstract String artifactError();
        @JsonProperty("artifact_error_code") abstract String artifactErrorCode();
        @JsonProperty("capture_file") abstract String captureFile();
        @JsonProperty("kill_report") abstract KillReport killReport();
        @JsonProperty("resources") abstract ResourceTotals resources();
        @JsonProperty("events") abstract List<SessionEvent> events();
        @JsonProperty("host") abstract String host();
        @JsonProperty("connection") abstract String connection();
        @JsonProperty("lingering") abstract List<ProcessRef> lingering();
        @JsonIgnore abstract StackLink stack();
        @JsonProperty("ready") abstract Boolean ready();
        @JsonIgnore abstract RunProgress estimate();
        // Derived from the preview, the stack link and the estimate.
        @JsonProperty("depends_on") abstract Map<String, String> dependsOn();
        @JsonProperty("restarts") abstract int restarts();
        @JsonProperty("previous_run") abstract String previousRun();
        @JsonProperty("stack_name") abstract String stackName();
        @JsonProperty("stack_file") abstract String stackFile();
        @JsonProperty("raw_output") abstract String rawOutput();
        @JsonProperty("output") abstract String output();
        @JsonProperty("output_truncated") abstract boolean outputTruncated();
        @JsonProperty("output_bytes") abstract long outputBytes();
        @JsonProperty("output_original_bytes") abstract Long outputOriginalBytes();
        @JsonProperty("output_visible_bytes") abstract Long outputVisibleBytes();
        @JsonProperty("output_dropped_bytes") abstract Long outputDroppedBytes();
        @JsonProperty("last_line") abstract String lastLine();
        @JsonProperty("progress") abstract Double progress();
        @JsonProperty("progress_basis") abstract String progressBasis();
        @JsonProperty("eta_seconds") abstract Double etaSeconds();
        @JsonProperty("longer_than_usual") abstract boolean longerThanUsual();
        @JsonProperty("slurm") abstract dev.runboard.session.SlurmJob slurm();
        @JsonIgnore abstract boolean isRunning();
        @JsonIgnore abstract Duration elapsed();
    }

    @JsonPropertyOrder({"reason", "signal", "grace_ms", "requested_at", "process_group", "signalled",
        "escalated_to_kill", "killed_after_grace", "swept_by_tag", "finished_at", "duration_ms", "survivors",
        "not_ours", "notes"})
    abstract static class Kill {
        @JsonProperty("reason") abstract String reason();
        @JsonProperty("signal") abstract String signal();
        @JsonProperty("grace_ms") abstract long graceMillis();
        @JsonProperty("requested_at") abstract Instant requestedAt();
        @JsonProperty("process_group") abstract long processGroup();
        @JsonProperty("signalled") abstract List<ProcessRef> signalled();
        @JsonProperty("escalated_to_kill") abstract boolean escalatedToKill();
        @JsonProperty("killed_after_grace") abstract List<ProcessRef> killedAfterGrace();
        @JsonProperty("swept_by_tag") abstract List<ProcessRef> sweptByTag();
        @JsonProperty("finished_at") abstract Instant finishedAt();
        @JsonProperty("survivors") abstract List<ProcessRef> survivors();
        @JsonProperty("not_ours") abstract List<ProcessRef> notOurs();
        @JsonProperty("notes") abstract List<String> notes();
        @JsonProperty("duration_ms") abstract long durationMillis();
    }

    abstract static class Ref {
        @JsonProperty("pid") abstract long pid();
        @JsonProperty("command") abstract String command();
    }

    abstract static class Resources {
        @JsonProperty("peak_rss_bytes") abstract long peakRssBytes();
        @JsonProperty("cpu_seconds") abstract double cpuSeconds();
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    abstract static class Stack {
        @JsonProperty("name") abstract String name();
        @JsonProperty("file") abstract String file();
        @JsonProperty("group") abstract String group();
        @JsonProperty("depends_on") abstract Map<String, String> dependsOn();
        @JsonProperty("restarts") abstract int restarts();
        @JsonProperty("previous_run") abstract String previousRun();
        @JsonProperty("probed") abstract boolean probed();
        @JsonProperty("success_exit_codes") abstract List<Integer> successExitCodes();
        @JsonProperty("shutdown") abstract dev.runboard.session.ShutdownStep shutdown();
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    abstract static class Shutdown {
        @JsonProperty("command") abstract String command();
        @JsonProperty("signal") abstract String signal();
    }

    /** A Slurm session's job (docs/CLUSTERS.md): {@code reason} is Slurm's ({@code squeue %r}). */
    @JsonPropertyOrder({"job_id", "node", "partition", "state", "reason"})
    abstract static class Slurm {
        @JsonProperty("job_id") abstract String jobId();
        @JsonProperty("node") abstract String node();
        @JsonProperty("partition") abstract String partition();
        @JsonProperty("state") abstract String state();
        @JsonProperty("reason") abstract String reason();
        @JsonIgnore abstract boolean isPending();
        @JsonIgnore abstract String pendingReason();
    }

    abstract static class SlurmSpec {
        @JsonProperty("sbatch") abstract List<String> sbatch();
    }

    /** The action is read by {@link Json}'s module, in either case ({@link OutputRule.Action#parse}). */
    abstract static class Rule {
        @JsonProperty("pattern") abstract String pattern();
        @JsonProperty("action") abstract OutputRule.Action action();
        @JsonIgnore abstract String describe();
    }

    abstract static class Watch {
        @JsonProperty("rules") abstract List<OutputRule> rules();
        @JsonProperty("hang_after") abstract Duration hangAfter();
        @JsonProperty("hang_action") abstract WatchSpec.HangAction hangAction();
        @JsonProperty("max_rss_bytes") abstract Long maxRssBytes();
        @JsonProperty("max_cpu_percent") abstract Double maxCpuPercent();
        @JsonProperty("cpu_for") abstract Duration cpuFor();
        @JsonIgnore abstract boolean isEmpty();
    }
}
