package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.runboard.session.KillReport;
import dev.runboard.session.LastLine;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.ResourceTotals;
import dev.runboard.session.Session;
import dev.runboard.session.SessionId;
import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionState;
import dev.runboard.session.SessionStatus;
import java.time.Instant;
import java.util.Base64;
import java.util.List;

/**
 * A session as written to {@code sessions/<id>/session.json}: a Jackson DTO kept apart from the
 * live {@link Session}. The preview is stored as its raw UTF-8 bytes (base64) so that reloading
 * gives exactly what was shown.
 *
 * <p>{@link #schema()} numbers the layout: {@value #SCHEMA} now. Runboard 0.1 wrote no schema (it
 * wrote {@code "format": 1}, which is ignored); {@link RecordReader} reads such a record as schema 1
 * and migrates it. Every field read from disk is {@link #check checked} before anything uses it.
 */
public record SessionRecord(
        @JsonProperty("schema") int schema,
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
        @JsonProperty("resources") ResourceTotals resources,
        @JsonProperty("events") List<SessionEvent> events,
        @JsonProperty("stack") dev.runboard.session.StackLink stack,
        @JsonProperty("ready") Boolean ready,
        @JsonProperty("output_dropped_bytes") Long outputDroppedBytes,
        @JsonProperty("connection") String connection,
        @JsonProperty("slurm") dev.runboard.session.SlurmJob slurm) implements dev.runboard.session.TextAsUtf8 {

    /** A record without output_dropped_bytes, connection or slurm (written before them, or of a local output kept whole, not a Slurm job). */
    public SessionRecord(int schema, String id, SpecRecord spec, SessionStatus status, Long pid, long pidStartTicks,
                         Instant startedAt, Instant endedAt, Integer exitCode, String signal, String reason, String outputHead,
                         String outputTail, long outputBytes, String outputNote, String artifact, String artifactError,
                         String artifactErrorCode, String captureFile, KillReport killReport, ResourceTotals resources,
                         List<SessionEvent> events, dev.runboard.session.StackLink stack, Boolean ready) {
        this(schema, id, spec, status, pid, pidStartTicks, startedAt, endedAt, exitCode, signal, reason, outputHead, outputTail,
                outputBytes, outputNote, artifact, artifactError, artifactErrorCode, captureFile, killReport, resources, events,
                stack, ready, null, null, null);
    }

    /** Events are optional on disk (older records have none); in memory never null. */
    public SessionRecord {
        // Most records have no events: no stream pipeline for each of a 10,000-session history's records.
        events = events == null || events.isEmpty() ? List.of() : events.stream().filter(java.util.Objects::nonNull).toList();
    }

    /** The schema this runboard writes. 2: the {@code schema} field itself, and the ranges of {@link SessionSpec#validate()}. */
    public static final int SCHEMA = 2;
    /** Records of runboard 0.1, which have no {@code schema} field. */
    public static final int SCHEMA_0_1 = 1;
    /** Instants outside these years are not times runboard wrote (and could overflow elapsed-time arithmetic). */
    static final Instant EARLIEST = Instant.EPOCH;
    static final Instant LATEST = Instant.ofEpochSecond(7_258_118_400L); // 2200-01-01T00:00:00Z (Instant.parse would start DateTimeFormatter)

    /** What the engine knows now: a running session has no outcome and no preview yet. */
    public static SessionRecord of(Session s) {
        return of(s.id(), s.spec(), s.state(), s.stack(), s.connection()).withSlurm(s.slurm());
    }

    /** The session as it is with {@code o} as its outcome (null while it runs), whether or not {@code s} has ended yet. */
    public static SessionRecord of(Session s, SessionOutcome o) {
        SessionState st = s.state();
        if (o != null && !(st instanceof SessionState.Ended)) {
            st = SessionState.Ended.from(st, o);
        }
        return of(s.id(), s.spec(), st, s.stack(), s.connection()).withSlurm(s.slurm());
    }

    /** This record with a Slurm session's job as Slurm last told it (null: none). */
    public SessionRecord withSlurm(dev.runboard.session.SlurmJob job) {
        return job == null && slurm == null ? this : new SessionRecord(schema, id, spec, status, pid, pidStartTicks, startedAt,
                endedAt, exitCode, signal, reason, outputHead, outputTail, outputBytes, outputNote, artifact, artifactError,
                artifactErrorCode, captureFile, killReport, resources, events, stack, ready, outputDroppedBytes, connection, job);
    }

    /** The record of a session in one state: what is on disk is exactly one value the session was in. */
    public static SessionRecord of(String id, SessionSpec spec, SessionState st) {
        return of(id, spec, st, null);
    }

    /** As {@link #of(String, SessionSpec, SessionState)}, with its place in a stack (issue #17). */
    public static SessionRecord of(String id, SessionSpec spec, SessionState st, dev.runboard.session.StackLink stack) {
        return of(id, spec, st, stack, null);
    }

    /**
     * As above, with a remote session's {@code connection} to its host ({@code connected},
     * {@code disconnected}): clients (the window) read it from the record; kept only while it runs.
     */
    public static SessionRecord of(String id, SessionSpec spec, SessionState st, dev.runboard.session.StackLink stack,
                                   String connection) {
        SessionOutcome o = st instanceof SessionState.Ended e ? e.outcome() : null;
        OutputPreview p = o == null ? OutputPreview.EMPTY : o.preview();
        Base64.Encoder b64 = Base64.getEncoder();
        return new SessionRecord(SCHEMA, id, SpecRecord.of(spec), st.status(), st.pid(), st.pidStartTicks(),
                st.startedAt(), o == null ? null : o.endedAt(), o == null ? null : o.exitCode(),
                o == null ? null : o.signal(),
                o != null ? o.reason() : st instanceof SessionState.Waiting w ? w.reason() : null,
                b64.encodeToString(p.headBytes()), b64.encodeToString(p.tailBytes()), p.originalBytes(), p.note(),
                o == null ? null : o.artifact(), o == null ? null : o.artifactError(),
                o == null ? null : o.artifactErrorCode(), o == null ? null : o.captureFile(), st.killReport(),
                st.resources(), st.events(), stack, st.ready(), p.droppedBytes() > 0 ? p.droppedBytes() : null,
                spec.isRemote() && !st.status().isTerminal() ? connection : null, null);
    }

    /**
     * Throws {@link CorruptRecordException} naming the first field that is missing, null, out of
     * range or undecodable, or when the id is not a plain session id or not {@code folder} (the
     * name of the folder the record was read from). A checked record can be restored, listed and
     * printed without failing.
     */
    public SessionRecord check(String folder) throws CorruptRecordException {
        if (id == null || !SessionId.isValid(id)) {
            throw new CorruptRecordException("session_id " + SessionId.quote(id) + " is not a session id");
        }
        if (!id.equals(folder)) {
            throw new CorruptRecordException("session_id " + SessionId.quote(id) + " is not its folder's name");
        }
        if (spec == null) {
            throw new CorruptRecordException("spec is missing");
        }
        spec.check();
        if (status == null) {
            throw new CorruptRecordException("status is missing");
        }
        if (pid != null && pid <= 0) {
            throw new CorruptRecordException("pid " + pid + " is not a process id");
        }
        if (pidStartTicks < 0) {
            throw new CorruptRecordException("pid_start_ticks is negative");
        }
        instant(startedAt, "started_at", false);
        instant(endedAt, "ended_at", true);
        if (outputBytes < 0) {
            throw new CorruptRecordException("output_bytes is negative");
        }
        if (outputDroppedBytes != null && (outputDroppedBytes < 0 || outputDroppedBytes > outputBytes)) {
            throw new CorruptRecordException("output_dropped_bytes is negative or more than output_bytes");
        }
        long shown = decoded(outputHead, "output_head") + decoded(outputTail, "output_tail");
        if (shown > outputBytes - droppedBytes()) {
            throw new CorruptRecordException("the preview holds " + shown + " bytes of an output of " + outputBytes);
        }
        if (artifact != null) {
            SpecRecord.path(artifact, "artifact");
        }
        if (captureFile != null) {
            SpecRecord.path(captureFile, "capture_file");
        }
        if (killReport != null) {
            checkKillReport();
        }
        if (resources != null && (resources.peakRssBytes() < 0 || !(resources.cpuSeconds() >= 0)
                || Double.isInfinite(resources.cpuSeconds()))) {
            throw new CorruptRecordException("resources are negative or not numbers");
        }
        return this;
    }

    private void checkKillReport() throws CorruptRecordException {
        if (killReport.signal() == null) {
            throw new CorruptRecordException("kill_report.signal is missing");
        }
        if (killReport.graceMillis() < 0) {
            throw new CorruptRecordException("kill_report.grace_ms is negative");
        }
        instant(killReport.requestedAt(), "kill_report.requested_at", false);
        instant(killReport.finishedAt(), "kill_report.finished_at", false);
    }

    private static void instant(Instant at, String field, boolean optional) throws CorruptRecordException {
        if (at == null && !optional) {
            throw new CorruptRecordException(field + " is missing");
        }
        if (at != null && (at.isBefore(EARLIEST) || at.isAfter(LATEST))) {
            throw new CorruptRecordException(field + " " + at + " is not a time runboard could have written");
        }
    }

    private static int decoded(String base64, String field) throws CorruptRecordException {
        try {
            return Base64Length.of(base64);
        } catch (IllegalArgumentException e) {
            throw new CorruptRecordException(field + " is not base64 (" + e.getMessage() + ")");
        }
    }

    /** The preview's base64 text as bytes (ASCII: copied whole, not escaped character by character). */
    @Override
    public byte[] utf8Of(String accessor) {
        String base64 = switch (accessor) {
            case "outputHead" -> outputHead;
            case "outputTail" -> outputTail;
            default -> null;
        };
        return base64 == null ? null : base64.getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Whether the record holds preview bytes (as base64). */
    public boolean hasPreview() {
        return outputHead != null && !outputHead.isEmpty() || outputTail != null && !outputTail.isEmpty();
    }

    /**
     * The same record without its preview's bytes, for a disk with no room for them: it still says
     * how many bytes the output had, and where they are (the artifact or the capture).
     */
    public SessionRecord withoutPreview() {
        return new SessionRecord(schema, id, spec, status, pid, pidStartTicks, startedAt, endedAt, exitCode, signal,
                reason, "", "", outputBytes, outputNote, artifact, artifactError, artifactErrorCode,
                captureFile, killReport, resources, events, stack, ready, outputDroppedBytes, connection, slurm);
    }

    /** The same record in the current schema. */
    SessionRecord withSchema(int newSchema, SpecRecord newSpec) {
        return new SessionRecord(newSchema, id, newSpec, status, pid, pidStartTicks, startedAt, endedAt, exitCode, signal,
                reason, outputHead, outputTail, outputBytes, outputNote, artifact, artifactError, artifactErrorCode,
                captureFile, killReport, resources, events, stack, ready, outputDroppedBytes, connection, slurm);
    }

    /** This record with other output files (see {@link OwnOutputFiles}). */
    SessionRecord withOutputFiles(String newArtifact, String newArtifactError, String newArtifactErrorCode, String newCaptureFile) {
        return new SessionRecord(schema, id, spec, status, pid, pidStartTicks, startedAt, endedAt, exitCode, signal,
                reason, outputHead, outputTail, outputBytes, outputNote, newArtifact, newArtifactError, newArtifactErrorCode,
                newCaptureFile, killReport, resources, events, stack, ready, outputDroppedBytes, connection, slurm);
    }

    public OutputPreview preview() {
        Base64.Decoder b64 = Base64.getDecoder();
        byte[] head = outputHead == null ? new byte[0] : b64.decode(outputHead);
        byte[] tail = outputTail == null ? new byte[0] : b64.decode(outputTail);
        return OutputPreview.restore(head, tail, outputBytes, outputNote).withDropped(droppedBytes());
    }

    /** As {@link #preview()}, not packed: read back to be shown once. */
    OutputPreview previewUnpacked() {
        Base64.Decoder b64 = Base64.getDecoder();
        byte[] head = outputHead == null ? new byte[0] : b64.decode(outputHead);
        byte[] tail = outputTail == null ? new byte[0] : b64.decode(outputTail);
        return OutputPreview.restoreUnpacked(head, tail, outputBytes, outputNote).withDropped(droppedBytes());
    }

    /**
     * The preview as a finished row needs it ({@link OutputPreview#summary}): sizes, note and last
     * line, found from the base64 without decoding more than the last line's window of it; the
     * bytes are read back through {@code source} when the output is shown. A checked record's
     * fields are valid base64 (see {@link #check}).
     */
    public OutputPreview previewSummary(OutputPreview.Source source) {
        int headLength = Base64Length.of(outputHead);
        int tailLength = Base64Length.of(outputTail);
        boolean truncated = outputBytes - droppedBytes() > (long) headLength + tailLength;
        String end = truncated ? outputTail : outputHead;
        int endLength = truncated ? tailLength : headLength;
        String lastLine = outputBytes == 0 && outputNote != null ? outputNote
                : LastLine.ofEnd(Base64Length.decodeLast(end, endLength, LastLine.WINDOW), endLength > LastLine.WINDOW);
        return OutputPreview.summary(outputBytes, headLength, tailLength, outputNote, lastLine, source).withDropped(droppedBytes());
    }

    /** Bytes of the output's start max_output dropped (0: none). */
    long droppedBytes() {
        return outputDroppedBytes == null ? 0 : outputDroppedBytes;
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
