package dev.runboard.process;

import dev.runboard.session.OutputPreview;
import dev.runboard.session.Session;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.ArtifactException;
import dev.runboard.store.ArtifactStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * Turns an ended child into a session outcome: the terminal status, the final preview, and the
 * capture either removed (it fit in the preview) or persisted as an artifact. When persisting
 * fails, the outcome says why and where the kept capture is: nothing is lost.
 */
final class SessionFinisher {
    private final ArtifactStore artifacts;
    private final Clock clock;

    SessionFinisher(ArtifactStore artifacts, Clock clock) {
        this.artifacts = artifacts;
        this.clock = clock;
    }

    SessionOutcome couldNotStart(Session session, IOException e) {
        String why = e.getMessage() == null ? e.toString() : e.getMessage();
        if (!Files.isDirectory(session.spec().cwd())) {
            why = "cwd " + session.spec().cwd() + " does not exist";
        }
        deleteCapture(session.captureFile());
        return new SessionOutcome(SessionStatus.FAILED, clock.instant(), null, null, "could not start: " + why,
                OutputPreview.noteOnly("could not start: " + why), null, null, null, null);
    }

    SessionOutcome internalError(Session session, int exitCode, RuntimeException e) {
        String why = "runboard could not finish this session (" + e + "); its output is kept at " + session.captureFile();
        return new SessionOutcome(exitCode == 0 && session.requestedEnd() == null ? SessionStatus.COMPLETED : SessionStatus.FAILED,
                clock.instant(), exitCode, null, why, OutputPreview.noteOnly(why), null, e.toString(),
                dev.runboard.store.ArtifactErrorCode.IO_ERROR.code(), Session.slashes(session.captureFile()));
    }

    SessionOutcome exited(Session session, int exitCode) {
        SessionStatus requested = session.requestedEnd();
        SessionStatus status = requested != null ? requested
                : exitCode == 0 ? SessionStatus.COMPLETED : SessionStatus.FAILED;
        // The JDK reports death by signal N as 128+N, as shells do.
        String signal = exitCode > 128 && exitCode <= 128 + 64 ? Signal.nameOf(exitCode - 128).orElse(null) : null;
        Path capture = session.captureFile();
        int bound = session.spec().previewBytes();

        OutputPreview preview;
        String captureProblem = null;
        try {
            preview = OutputPreview.read(capture, bound);
        } catch (NoSuchFileException e) {
            preview = OutputPreview.EMPTY;
            captureProblem = "the capture file " + capture + " was deleted while the command ran";
        } catch (IOException e) {
            preview = OutputPreview.EMPTY;
            captureProblem = "the capture file " + capture + " could not be read: " + e.getMessage();
        }
        String reason = reason(session, status, exitCode, signal);
        if (captureProblem != null) {
            reason = reason == null ? captureProblem : reason + "; " + captureProblem;
        }
        if (preview.isEmpty() && status == SessionStatus.TIMEOUT) {
            preview = OutputPreview.noteOnly(reason + "; no output was captured");
        }

        String artifact = null;
        String artifactError = null;
        String artifactErrorCode = null;
        String keptCapture = null;
        if (preview.truncated()) {
            try {
                artifact = Session.slashes(artifacts.persist(session.id(), capture));
            } catch (ArtifactException e) {
                artifactError = e.getMessage() + ". The full output is kept at " + capture + ".";
                artifactErrorCode = e.code().code();
                keptCapture = Session.slashes(capture);
            }
        } else if (captureProblem == null) {
            deleteCapture(capture);
        }
        return new SessionOutcome(status, clock.instant(), exitCode, signal, reason, preview, artifact, artifactError,
                artifactErrorCode, keptCapture);
    }

    private static String reason(Session session, SessionStatus status, int exitCode, String signal) {
        if (session.requestedReason() != null) {
            return session.requestedReason(); // an output rule, the hang watchdog or a runaway guard ended it
        }
        return switch (status) {
            case COMPLETED, RUNNING -> null;
            case TIMEOUT -> "timed out after " + seconds(session.spec().timeout());
            case KILLED -> "killed" + (session.killReport() != null ? " (" + session.killReport().signal() + ")" : "");
            case FAILED -> {
                if (signal != null) {
                    yield "ended by signal " + signal;
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

    /** Removes a capture that fit in the preview, and its folder when nothing else lives there. */
    private static void deleteCapture(Path capture) {
        try {
            Files.deleteIfExists(capture);
            Path dir = capture.getParent();
            try (var entries = Files.list(dir)) {
                if (entries.findAny().isEmpty()) {
                    Files.delete(dir);
                }
            }
        } catch (IOException ignored) {
            // a leftover empty capture is harmless; the outcome is what matters
        }
    }
}
