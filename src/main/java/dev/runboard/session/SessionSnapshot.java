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
    "artifact_error", "artifact_error_code", "capture_file", "kill_report", "resources",
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
        @JsonIgnore RunProgress estimate) {

    /** The view of a session in one state: the spec's fields, the state's, and the output as read. */
    public static SessionSnapshot of(String id, SessionSpec spec, java.nio.file.Path captureFile, SessionState state,
                                     OutputPreview preview, Duration elapsed, RunProgress estimate) {
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
                o != null ? o.reason() : null,
                preview,
                o != null ? o.artifact() : null,
                o != null ? o.artifactError() : null,
                o != null ? o.artifactErrorCode() : null,
                o != null ? o.captureFile() : Session.slashes(captureFile),
                state.killReport(),
                state.resources(),
                state.events(),
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

    @JsonIgnore
    public boolean isRunning() {
        return status == SessionStatus.RUNNING;
    }

    @JsonIgnore
    public Duration elapsed() {
        return Duration.ofNanos((long) (elapsedSeconds * 1e9));
    }
}
