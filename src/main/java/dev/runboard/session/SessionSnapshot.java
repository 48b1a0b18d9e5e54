package dev.runboard.session;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything known about a session at one instant: immutable, safe to hand from a worker to the
 * FX thread, and the JSON the CLI prints (field names are part of the contract; store.SessionMixIns
 * names them).
 */
public record SessionSnapshot(
        SessionStatus status,
        String sessionId,
        String command,
        List<String> argv,
        String cwd,
        String shell,
        Map<String, String> env,
        Long pid,
        Instant startedAt,
        Instant endedAt,
        double elapsedSeconds,
        Double timeoutSeconds,
        double graceSeconds,
        int nice,
        Integer exitCode,
        String signal,
        String reason,
        OutputPreview preview,
        String artifact,
        String artifactError,
        String artifactErrorCode,
        String captureFile,
        KillReport killReport,
        ResourceTotals resources,
        List<SessionEvent> events,
        String host,
        String connection,
        List<ProcessRef> lingering,
        StackLink stack,
        Boolean ready,
        RunProgress estimate,
        SlurmJob slurm) implements TextAsUtf8 {

    /** A snapshot of a session that is not a Slurm job. */
    public SessionSnapshot(SessionStatus status, String sessionId, String command, List<String> argv, String cwd, String shell,
                           Map<String, String> env, Long pid, Instant startedAt, Instant endedAt, double elapsedSeconds,
                           Double timeoutSeconds, double graceSeconds, int nice, Integer exitCode, String signal, String reason,
                           OutputPreview preview, String artifact, String artifactError, String artifactErrorCode,
                           String captureFile, KillReport killReport, ResourceTotals resources, List<SessionEvent> events,
                           String host, String connection, List<ProcessRef> lingering, StackLink stack, Boolean ready,
                           RunProgress estimate) {
        this(status, sessionId, command, argv, cwd, shell, env, pid, startedAt, endedAt, elapsedSeconds, timeoutSeconds,
                graceSeconds, nice, exitCode, signal, reason, preview, artifact, artifactError, artifactErrorCode, captureFile,
                killReport, resources, events, host, connection, lingering, stack, ready, estimate, null);
    }

    /** The same snapshot with its place in a stack (null: none) and its readiness (null: no probe). */
    public SessionSnapshot withStack(StackLink link, Boolean isReady) {
        if (link == null && isReady == null) {
            return this;
        }
        return new SessionSnapshot(status, sessionId, command, argv, cwd, shell, env, pid, startedAt, endedAt, elapsedSeconds,
                timeoutSeconds, graceSeconds, nice, exitCode, signal, reason, preview, artifact, artifactError,
                artifactErrorCode, captureFile, killReport, resources, events, host, connection, lingering, link, isReady, estimate,
                slurm);
    }

    /**
     * The same snapshot of a Slurm session with its job as Slurm last told it ({@code job} null: only
     * its id is known, which runboard keeps as the session's pid). A job Slurm holds reads {@code
     * pending} with Slurm's reason, though runboard has submitted it; no pid is shown, since the
     * wrapper's runs on a node. A job whose output has begun runs, whatever Slurm said last: its state is
     * asked at each poll, and the output comes as it is written, so a job that started since reads running
     * at once ({@code slurm} keeps Slurm's own word until its next answer).
     */
    public SessionSnapshot withSlurm(SlurmJob job) {
        SlurmJob known = job != null ? job : pid == null ? null : new SlurmJob(Long.toString(pid), null, null, null, null);
        boolean held = known != null && known.isPending() && status == SessionStatus.RUNNING && outputBytes() == 0;
        return new SessionSnapshot(held ? SessionStatus.PENDING : status, sessionId, command, argv, cwd, shell, env, null,
                startedAt, endedAt, elapsedSeconds, timeoutSeconds, graceSeconds, nice, exitCode, signal,
                held ? known.pendingReason() : reason, preview, artifact, artifactError, artifactErrorCode, captureFile,
                killReport, resources, events, host, connection, lingering, stack, ready, estimate, known);
    }

    /**
     * The same snapshot with {@code env} shown as given (the spec's own values): what {@code --reveal}
     * and a click on a masked value in the window ask for.
     */
    public SessionSnapshot revealed(Map<String, String> specEnv) {
        return new SessionSnapshot(status, sessionId, command, argv, cwd, shell, specEnv, pid, startedAt, endedAt, elapsedSeconds,
                timeoutSeconds, graceSeconds, nice, exitCode, signal, reason, preview, artifact, artifactError,
                artifactErrorCode, captureFile, killReport, resources, events, host, connection, lingering, stack, ready, estimate);
    }

    /** What it waits for: command name (or session id) to condition; null when nothing. */
    public Map<String, String> dependsOn() {
        return stack == null || stack.dependsOn().isEmpty() ? null : stack.dependsOn();
    }

    /** How many runs of the same command this one follows in its restart chain. */
    public int restarts() {
        return stack == null ? 0 : stack.restarts();
    }

    /** The id of the run this one replaced, or null. */
    public String previousRun() {
        return stack == null ? null : stack.previousRun();
    }

    /** The workspace command it runs, or null. */
    public String stackName() {
        return stack == null ? null : stack.name();
    }

    /** The workspace file it was started from by {@code up}, or null. */
    public String stackFile() {
        return stack == null ? null : stack.file();
    }

    /** The view of a session in one state: the spec's fields, the state's, and the output as read. */
    public static SessionSnapshot of(String id, SessionSpec spec, java.nio.file.Path captureFile, SessionState state,
                                     OutputPreview preview, Duration elapsed) {
        return of(id, spec, captureFile, state, preview, elapsed, null, RunProgress.NONE, List.of());
    }

    /**
     * As above, for a remote session with its connection ({@code connected}/{@code disconnected}, null
     * when local or once it has ended), and a running one's progress against its command's earlier runs.
     */
    public static SessionSnapshot of(String id, SessionSpec spec, java.nio.file.Path captureFile, SessionState state,
                                     OutputPreview preview, Duration elapsed, String connection, RunProgress estimate,
                                     List<ProcessRef> lingering) {
        SessionOutcome o = state instanceof SessionState.Ended e ? e.outcome() : null;
        return new SessionSnapshot(
                state.status(),
                id,
                spec.displayCommand(),
                spec.usesShell() ? null : spec.argv(),
                RawPaths.text(spec.cwd()), // its bytes, escaped where not UTF-8 (RawText): a script gets the folder itself
                spec.shell() == null ? null : Session.slashes(spec.shell()),
                SecretEnv.redact(spec.env(), spec.secretNames()), // every printed form is made here: secrets masked once
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
                lingering == null ? List.of() : List.copyOf(lingering),
                null,
                null,
                estimate == null ? RunProgress.NONE : estimate);
    }

    /** Where the exact bytes are: the artifact when the output outgrew the preview, else the capture file. */
    public String rawOutput() {
        return artifact != null ? artifact : captureFile;
    }

    public String output() {
        return preview.text();
    }

    /** {@link #output()}'s bytes, made from the preview's without decoding them. */
    @Override
    public byte[] utf8Of(String accessor) {
        return accessor.equals("output") ? preview.textUtf8() : null;
    }

    public boolean outputTruncated() {
        return preview.truncated();
    }

    /** Total output bytes written so far. */
    public long outputBytes() {
        return preview.originalBytes();
    }

    public Long outputOriginalBytes() {
        return preview.truncated() ? preview.originalBytes() : null;
    }

    public Long outputVisibleBytes() {
        return preview.truncated() ? preview.visibleBytes() : null;
    }

    /**
     * Bytes of the output's start dropped to keep it to {@code max_output}; null when none were (the
     * capture, {@link #rawOutput()}, then holds the newest bytes, from the first whole line kept).
     */
    public Long outputDroppedBytes() {
        return preview.droppedBytes() > 0 ? preview.droppedBytes() : null;
    }

    public String lastLine() {
        return preview.lastLine();
    }

    /** How far along a running session is against its command's earlier runs (0–1); null when unknown. */
    public Double progress() {
        return estimate.progress();
    }

    public Double etaSeconds() {
        return estimate.etaSeconds();
    }

    public boolean longerThanUsual() {
        return estimate.longerThanUsual();
    }

    /**
     * What the progress is read from: {@code output} (bytes written against the earlier runs', where
     * their output grew steadily) or {@code time} (elapsed against their duration); null without a progress.
     */
    public String progressBasis() {
        return estimate.progress() == null ? null : estimate.basis();
    }

    /** Started and not ended: running or paused. */
    public boolean isRunning() {
        return status.isLive();
    }

    public Duration elapsed() {
        return Duration.ofNanos((long) (elapsedSeconds * 1e9));
    }
}
