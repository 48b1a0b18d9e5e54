package dev.runboard.process;

import dev.runboard.session.Sizes;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.Session;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.ArtifactErrorCode;
import dev.runboard.store.ArtifactException;
import dev.runboard.store.ArtifactStore;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * Turns an ended command into a session outcome: the terminal status, the final preview, and the
 * capture either removed (it fit in the preview) or persisted as an artifact. When persisting
 * fails, the outcome says why and where the kept capture is: nothing is lost.
 */
final class SessionFinisher {
    static final String UNKNOWN_EXIT = "ended while runboard was not running; exit status unknown";
    /** Free space below which a capture's disk counts as full: a few pages, less than one write of a busy command. */
    static final long FULL_BELOW = 64 * 1024;

    private final ArtifactStore artifacts;
    private final SessionStore store;
    private final Clock clock;

    SessionFinisher(ArtifactStore artifacts, SessionStore store, Clock clock) {
        this.artifacts = artifacts;
        this.store = store;
        this.clock = clock;
    }

    SessionOutcome couldNotStart(Session session, IOException e) {
        String why = e.getMessage() == null ? e.toString() : e.getMessage();
        if (!Files.isDirectory(session.spec().cwd())) {
            why = "cwd " + session.spec().cwd() + " does not exist";
        }
        deleteQuietly(session.captureFile());
        deleteQuietly(store.file(session.id(), SessionStore.EXIT_STATUS_SPACE));
        return new SessionOutcome(SessionStatus.FAILED, clock.instant(), null, null, "could not start: " + why,
                OutputPreview.noteOnly("could not start: " + why), null, null, null, null);
    }

    SessionOutcome internalError(Session session, int exitCode, RuntimeException e) {
        String why = "runboard could not finish this session (" + e + "); its output is kept at " + session.captureFile();
        return new SessionOutcome(SessionStatus.FAILED, clock.instant(), exitCode, null, why, OutputPreview.noteOnly(why),
                null, e.toString(), ArtifactErrorCode.IO_ERROR.code(), Session.slashes(session.captureFile()));
    }

    /** The outcome of an ended command; an empty exit status means nobody saw how it ended. */
    SessionOutcome exited(Session session, Optional<ExitStatus> exit) {
        return exited(session, exit, null);
    }

    /** As above; {@code unknownWhy}, when not null, says why the exit status is unknown (else: nothing watched). */
    SessionOutcome exited(Session session, Optional<ExitStatus> exit, String unknownWhy) {
        SessionStatus status = status(session, exit);
        // No lambdas on the way to an exec's snapshot (SessionEngine.finish says why).
        Integer exitCode = exit.isPresent() ? exit.get().exitCode() : null;
        String signal = exit.isPresent() ? exit.get().signal() : null;
        Path capture = session.captureFile();
        int bound = session.spec().previewBytes();

        OutputPreview preview;
        String captureProblem = null;
        String captureProblemCode = null;
        try {
            if (!java.nio.file.Files.isRegularFile(capture, java.nio.file.LinkOption.NOFOLLOW_LINKS) && java.nio.file.Files.exists(
                    capture, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                // Replaced while the command ran (a link to another file, a FIFO): not read through.
                throw new java.nio.file.FileSystemException(capture.toString(), null, "it is no longer the capture file"
                        + " runboard made (it was replaced by a link or a special file); it was not read");
            }
            preview = OutputPreview.read(capture, bound).packed(); // kept while the session is listed
        } catch (NoSuchFileException e) {
            preview = OutputPreview.EMPTY;
            captureProblem = "the capture file " + capture + " was deleted while the command ran";
            captureProblemCode = ArtifactErrorCode.NOT_FOUND.code();
        } catch (IOException e) {
            preview = OutputPreview.EMPTY;
            captureProblem = "the capture file " + capture + " could not be read: " + e.getMessage();
            captureProblemCode = ArtifactErrorCode.IO_ERROR.code();
        }
        String reason = status == SessionStatus.UNKNOWN && unknownWhy != null && session.requestedReason() == null
                ? unknownWhy : reason(session, status, exitCode, signal);
        if (captureProblem != null) {
            reason = reason == null ? captureProblem : reason + "; " + captureProblem;
        }
        if (preview.isEmpty() && status == SessionStatus.TIMEOUT) {
            preview = OutputPreview.noteOnly(reason + "; no output was captured");
        }

        String artifact = null;
        String artifactError = captureProblem;
        String artifactErrorCode = captureProblemCode; // a script sees a lost capture as it sees a lost artifact
        String keptCapture = null;
        // Asked before the capture moves: the command writes into it directly, so runboard never sees
        // its writes fail; a disk with no room left when it ended is how a cut capture shows.
        String fullDisk = captureProblem == null ? fullDisk(capture) : null;
        if (preview.truncated()) {
            try {
                artifact = Session.slashes(artifacts.persist(session.id(), capture));
            } catch (ArtifactException e) {
                artifactError = e.getMessage() + ". The full output is kept at " + capture + ".";
                artifactErrorCode = e.code().code();
                keptCapture = Session.slashes(capture);
            }
        } else if (captureProblem == null) {
            // Output that fits the preview stays on disk too: the preview is decoded text (invalid
            // bytes become U+FFFD), the capture is the bytes exactly as written.
            keptCapture = Session.slashes(capture);
        }
        if (fullDisk != null && artifactErrorCode == null) {
            artifactErrorCode = ArtifactErrorCode.DISK_FULL.code();
            artifactError = "the disk was full when the command ended (" + fullDisk + "): any output written after it filled"
                    + " was lost; the " + preview.originalBytes() + " bytes written before are kept at "
                    + (artifact != null ? artifact : Session.slashes(capture)) + ".";
        }
        // When the command really ended, as its wrapper saw it: a session that ended while nothing
        // watched is not recorded as ending when it was noticed.
        java.time.Instant endedAt = exit.isPresent() ? exit.get().endedAt() : null;
        return new SessionOutcome(status, endedAt != null ? endedAt : clock.instant(), exitCode, signal, reason, preview,
                artifact, artifactError,
                artifactErrorCode, keptCapture);
    }

    /**
     * A remote session's outcome with its host's disk taken into account: the host's poll adds a
     * {@code host_disk_free BYTES} line below the wrapper's status, and a disk with less than
     * {@link #FULL_BELOW} left there cut the output as a full local disk does, so it is said the
     * same way ({@code artifact_error_code: disk_full}) unless another problem is already reported.
     */
    static SessionOutcome withHostDisk(Session session, SessionOutcome o, String statusText) {
        if (!session.spec().isRemote() || statusText == null || o.artifactErrorCode() != null) {
            return o;
        }
        long free = -1;
        for (String line : statusText.split("\n")) {
            if (line.startsWith("host_disk_free ")) {
                try {
                    free = Long.parseLong(line.substring("host_disk_free ".length()).strip());
                } catch (NumberFormatException e) {
                    return o;
                }
            }
        }
        if (free < 0 || free >= FULL_BELOW) {
            return o;
        }
        String where = o.artifact() != null ? o.artifact() : o.captureFile() != null ? o.captureFile()
                : Session.slashes(session.captureFile());
        String error = "the disk on " + session.spec().host() + " was full when the command ended (" + Sizes.format(free)
                + " free there): any output written after it filled was lost; the " + o.preview().originalBytes()
                + " bytes written before are kept at " + where + ".";
        return new SessionOutcome(o.status(), o.endedAt(), o.exitCode(), o.signal(), o.reason(), o.preview(), o.artifact(),
                error, ArtifactErrorCode.DISK_FULL.code(), o.captureFile());
    }

    /**
     * Says how little room is left when the capture's disk is full (under {@link #FULL_BELOW} free
     * for this user: less than a command's next write), else null.
     */
    static String fullDisk(Path capture) {
        try {
            // One statvfs; the file store (which names the disk, found by reading /proc/mounts: ~3 ms of an
            // exec's end) only for the message.
            long free = capture.toFile().getUsableSpace();
            if (free >= FULL_BELOW || free == 0 && !Files.exists(capture)) {
                return null;
            }
            return Sizes.format(free) + " free on " + Files.getFileStore(capture);
        } catch (IOException | RuntimeException e) {
            return null; // cannot tell: say nothing rather than something false
        }
    }

    /**
     * The status, from what the wrapper saw (which kill's first signal the command ended after, if
     * any) and what was asked: the first kill to signal a running command decides (a deadline's is
     * {@code timeout}); a command that ended before any signal keeps its own status, but for an output
     * rule's failure, which stands whenever the command ended.
     */
    private SessionStatus status(Session session, Optional<ExitStatus> exit) {
        SessionStatus requested = session.requestedEnd();
        if (requested == null) {
            // A kill asked by another runboard (or one that died mid-kill): its request says how to record it.
            requested = store.requestedEnd(session.id()).orElse(null);
        }
        ExitStatus.Cause cause = exit.isPresent() ? exit.get().cause() : ExitStatus.Cause.UNSAID;
        switch (cause) {
            case TIMEOUT:
                return SessionStatus.TIMEOUT; // the wrapper's deadline ended it (perhaps while no runboard ran)
            case KILLED:
                return requested != null ? requested : SessionStatus.KILLED;
            case OWN:
                if (requested == SessionStatus.FAILED) {
                    return requested;
                }
                break;
            default:
                if (requested != null) {
                    return requested;
                }
        }
        if (exit.isEmpty()) {
            return SessionStatus.UNKNOWN;
        }
        // A stack command's success_exit_codes count as success too (an exit, never a signal's death).
        int code = exit.get().exitCode();
        boolean success = code == 0 || exit.get().signal() == null && session.stack() != null && session.stack().succeedsWith(code);
        return success ? SessionStatus.COMPLETED : SessionStatus.FAILED;
    }

    private static String reason(Session session, SessionStatus status, Integer exitCode, String signal) {
        if (session.requestedReason() != null && status == session.requestedEnd()) {
            return session.requestedReason(); // an output rule, the hang watchdog or a runaway guard ended it
        }
        return switch (status) {
            case COMPLETED, RUNNING, PAUSED, PENDING, QUEUED, SKIPPED -> null;
            case UNKNOWN -> UNKNOWN_EXIT;
            case TIMEOUT -> "timed out after " + seconds(session.spec().timeout());
            case KILLED -> "killed" + (session.killReport() != null ? " (" + session.killReport().signal() + ")" : "");
            case FAILED -> {
                if (signal != null) {
                    yield "ended by signal " + signal;
                }
                String problem = exitCode == null ? null : LaunchProblem.of(session.spec(), exitCode);
                if (problem != null) {
                    yield problem + " (exit " + exitCode + ")"; // the program is there: "not found" would send the person looking for it
                }
                if (exitCode == 127) {
                    yield "command not found (exit 127)";
                }
                if (exitCode == 126) {
                    yield "command found but not executable (exit 126)";
                }
                yield "exited with code " + exitCode;
            }
        };
    }

    static String seconds(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? (ms / 1000) + " s" : String.format(java.util.Locale.ROOT, "%.1f s", ms / 1000.0);
    }

    /** Removes what only mattered while the session ran; the record (and any kept capture) stays. */
    void tidy(Session session) {
        deleteQuietly(store.file(session.id(), SessionStore.EXIT_STATUS));
        deleteQuietly(store.file(session.id(), SessionStore.KILL_REQUEST));
        deleteQuietly(store.file(session.id(), SessionStore.KILL_REPORT));
        deleteQuietly(store.file(session.id(), SessionStore.COMMAND));
        deleteQuietly(store.file(session.id(), SessionStore.EXIT_STATUS_SPACE));
        deleteQuietly(store.file(session.id(), SessionStore.RECORD_SPACE));
    }

    private static void deleteQuietly(Path file) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // a leftover file is harmless; the outcome is what matters
        }
    }
}
