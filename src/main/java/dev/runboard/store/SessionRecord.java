package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.runboard.session.KillReport;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.ResourceTotals;
import dev.runboard.session.Session;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionStatus;
import java.time.Instant;
import java.util.Base64;

/**
 * A session as written to {@code sessions/<id>/session.json}: a Jackson DTO kept apart from the
 * live {@link Session}. The preview is stored as its raw UTF-8 bytes (base64) so that reloading
 * gives exactly what was shown.
 */
public record SessionRecord(
        @JsonProperty("format") int format,
        @JsonProperty("session_id") String id,
        @JsonProperty("spec") SpecRecord spec,
        @JsonProperty("status") SessionStatus status,
        @JsonProperty("pid") Long pid,
        @JsonProperty("pid_start_ticks") long pidStartTicks,
        @JsonProperty("started_at") Instant startedAt,
        @JsonProperty("ended_at") Instant endedAt,
        @JsonProperty("exit_code") Integer exitCode,
        @JsonProperty("signal") String signal,
        @JsonProperty("reason") String reason,
        @JsonProperty("output_head") String outputHead,
        @JsonProperty("output_tail") String outputTail,
        @JsonProperty("output_bytes") long outputBytes,
        @JsonProperty("output_note") String outputNote,
        @JsonProperty("artifact") String artifact,
        @JsonProperty("artifact_error") String artifactError,
        @JsonProperty("artifact_error_code") String artifactErrorCode,
        @JsonProperty("capture_file") String captureFile,
        @JsonProperty("kill_report") KillReport killReport,
        @JsonProperty("resources") ResourceTotals resources) {

    public static final int FORMAT = 1;

    /** What the engine knows now: a running session has no outcome and no preview yet. */
    public static SessionRecord of(Session s) {
        return of(s, s.outcome());
    }

    /** The session as it is with {@code o} as its outcome (null while it runs), whether or not {@code s} has ended yet. */
    public static SessionRecord of(Session s, SessionOutcome o) {
        OutputPreview p = o == null ? OutputPreview.EMPTY : o.preview();
        Base64.Encoder b64 = Base64.getEncoder();
        return new SessionRecord(FORMAT, s.id(), SpecRecord.of(s.spec()), o == null ? s.status() : o.status(), s.pid(), s.pidStartTicks(),
                s.startedAt(), o == null ? null : o.endedAt(), o == null ? null : o.exitCode(),
                o == null ? null : o.signal(), o == null ? null : o.reason(),
                b64.encodeToString(p.headBytes()), b64.encodeToString(p.tailBytes()), p.originalBytes(), p.note(),
                o == null ? null : o.artifact(), o == null ? null : o.artifactError(),
                o == null ? null : o.artifactErrorCode(), o == null ? null : o.captureFile(), s.killReport(),
                s.resources());
    }

    public OutputPreview preview() {
        Base64.Decoder b64 = Base64.getDecoder();
        byte[] head = outputHead == null ? new byte[0] : b64.decode(outputHead);
        byte[] tail = outputTail == null ? new byte[0] : b64.decode(outputTail);
        return OutputPreview.restore(head, tail, outputBytes, outputNote);
    }

    /** The outcome of a finished record; null while it is running. */
    public SessionOutcome outcome() {
        if (status == null || !status.isTerminal()) {
            return null;
        }
        return new SessionOutcome(status, endedAt == null ? startedAt : endedAt, exitCode, signal, reason, preview(),
                artifact, artifactError, artifactErrorCode, captureFile);
    }
}
