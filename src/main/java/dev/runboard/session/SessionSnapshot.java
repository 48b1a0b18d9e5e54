package dev.runboard.session;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything known about a session at one instant: immutable, safe to hand from a worker to the
 * FX thread, and the JSON the CLI prints (field names are part of the contract).
 */
@JsonPropertyOrder({"status", "session_id", "command", "argv", "cwd", "shell", "env", "pid", "started_at",
    "ended_at", "elapsed_seconds", "timeout_seconds", "grace_seconds", "nice", "exit_code", "signal", "reason", "output",
    "output_truncated", "output_bytes", "output_original_bytes", "output_visible_bytes", "last_line", "artifact",
    "artifact_error", "artifact_error_code", "capture_file", "kill_report", "resources", "events", "host", "connection",
    "ready", "depends_on", "restarts", "previous_run", "stack_name", "stack_file",
    "progress", "eta_seconds", "longer_than_usual"})
public record SessionSnapshot(
        @JsonProperty("status") SessionStatus status,
        @JsonProperty("session_id") String sessionId,
        @JsonProperty("command") String command,
        @JsonProperty("argv") List<String> argv,
        @JsonProperty("cwd") String cwd,
        @JsonProperty("shell") String shell,
        @JsonProperty("env") Map<String, String> env,
        @JsonProperty("pid") Long pid,
        @JsonProperty("started_at") Instant startedAt,
        @JsonProperty("ended_at") Instant endedAt,
        @JsonProperty("elapsed_seconds") double elapsedSeconds,
        @JsonProperty("timeout_seconds") Double timeoutSeconds,
        @JsonProperty("grace_seconds") double graceSeconds,
        @JsonProperty("nice") int nice,
        @JsonProperty("exit_code") Integer exitCode,
        @JsonProperty("signal") String signal,
        @JsonProperty("reason") String reason,
        @JsonIgnore OutputPreview preview,
        @JsonProperty("artifact") String artifact,
        @JsonProperty("artifact_error") String artifactError,
        @JsonProperty("artifact_error_code") String artifactErrorCode,
        @JsonProperty("capture_file") String captureFile,
        @JsonProperty("kill_report") KillReport killReport,
        @JsonProperty("resources") ResourceTotals resources,
        @JsonProperty("events") List<SessionEvent> events,
        @JsonProperty("host") String host,
        @JsonProperty("connection") String connection,
        @JsonIgnore StackLink stack,
        @JsonProperty("ready") Boolean ready,
        @JsonIgnore RunProgress estimate) {

    /** The same snapshot with its place in a stack (null: none) and its readiness (null: no probe). */
    public SessionSnapshot withStack(StackLink link, Boolean isReady) {
        if (link == null && isReady == null) {
            return this;
        }
        return new SessionSnapshot(status, sessionId, command, argv, cwd, shell, env, pid, startedAt, endedAt, elapsedSeconds,
                timeoutSeconds, graceSeconds, nice, exitCode, signal, reason, preview, artifact, artifactError,
                artifactErrorCode, captureFile, killReport, resources, events, host, connection, link, isReady, estimate);
    }

    /** What it waits for: command name (or session id) to condition; null when nothing. */
    @JsonProperty("depends_on")
    public Map<String, String> dependsOn() {
        return stack == null || stack.dependsOn().isEmpty() ? null : stack.dependsOn();
    }

    /** How many runs of the same command this one follows in its restart chain. */
    @JsonProperty("restarts")
    public int restarts() {
        return stack == null ? 0 : stack.restarts();
    }

    /** The id of the run this one replaced, or null. */
    @JsonProperty("previous_run")
    public String previousRun() {
        return stack == null ? null : stack.previousRun();
    }

    /** The workspace command it runs, or null. */
    @JsonProperty("stack_name")
    public String stackName() {
        return stack == null ? null : stack.name();
    }

    /** The workspace file it was started from by {@code up}, or null. */
    @JsonProperty("stack_file")
    public String stackFile() {
        return stack == null ? null : stack.file();
    }

    /** The view of a session in one state: the spec's fields, the state's, and the output as read. */
    public static SessionSnapshot of(String id, SessionSpec spec, java.nio.file.Path captureFile, SessionState state,
                                     OutputPreview preview, Duration elapsed) {
        return of(id, spec, captureFile, state, preview, elapsed, null, RunProgress.NONE);
    }

    /**
     * As above, for a remote session with its connection ({@code connected}/{@code disconnected}, null
     * when local or once it has ended), and a running one's progress against its command's earlier runs.
     */
    public static SessionSnapshot of(String id, SessionSpec spec, java.nio.file.Path captureFile, SessionState state,
                                     OutputPreview preview, Duration elapsed, String connection, RunProgress estimate) {
        SessionOutcome o = state instanceof SessionState.Ended e ? e.outcome() : null;
        return new SessionSnapshot(
                state.status(),
                id,
                spec.displayCommand(),
                spec.usesShell() ? null : spec.argv(),
                Session.slashes(spec.cwd()),
                spec.shell() == null ? null : Session.slashes(spec.shell()),
                spec.env(),
                state.pid(),
                state.startedAt(),
                o != null ? o.endedAt() : null,
                elapsed.toMillis() / 1000.0,
                spec.timeout() == null ? null : spec.timeout().toMillis() / 1000.0,
                spec.grace().toMillis() / 1000.0,
                spec.nice(),
                o != null ? o.exitCode() : null,
                o != null ? o.signal() : null,
                o != null ? o.reason() : state instanceof SessionState.Waiting w ? w.reason() : null,
                preview,
                o != null ? o.artifact() : null,
                o != null ? o.artifactError() : null,
                o != null ? o.artifactErrorCode() : null,
                o != null ? o.captureFile() : Session.slashes(captureFile),
                state.killReport(),
                state.resources(),
                state.events(),
                spec.host(),
                spec.isRemote() && !state.status().isTerminal() ? connection : null,
                null,
                null,
                estimate == null ? RunProgress.NONE : estimate);
    }

    /** Where the exact bytes are: the artifact when the output outgrew the preview, else the capture file. */
    @JsonProperty("raw_output")
    public String rawOutput() {
        return artifact != null ? artifact : captureFile;
    }

    @JsonProperty("output")
    public String output() {
        return preview.text();
    }

    @JsonProperty("output_truncated")
    public boolean outputTruncated() {
        return preview.truncated();
    }

    /** Total output bytes written so far. */
    @JsonProperty("output_bytes")
    public long outputBytes() {
        return preview.originalBytes();
    }

    @JsonProperty("output_original_bytes")
    public Long outputOriginalBytes() {
        return preview.truncated() ? preview.originalBytes() : null;
    }

    @JsonProperty("output_visible_bytes")
    public Long outputVisibleBytes() {
        return preview.truncated() ? preview.visibleBytes() : null;
    }

    @JsonProperty("last_line")
    public String lastLine() {
        return preview.lastLine();
    }

    /** How far along a running session is against its command's earlier runs (0–1); null when unknown. */
    @JsonProperty("progress")
    public Double progress() {
        return estimate.progress();
    }

    @JsonProperty("eta_seconds")
    public Double etaSeconds() {
        return estimate.etaSeconds();
    }

    @JsonProperty("longer_than_usual")
    public boolean longerThanUsual() {
        return estimate.longerThanUsual();
    }

    /** Started and not ended: running or paused. */
    @JsonIgnore
    public boolean isRunning() {
        return status.isLive();
    }

    @JsonIgnore
    public Duration elapsed() {
        return Duration.ofNanos((long) (elapsedSeconds * 1e9));
    }
}
