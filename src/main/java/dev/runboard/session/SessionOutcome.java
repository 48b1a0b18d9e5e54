package dev.runboard.session;

import java.time.Instant;

/** How a session ended: set once, by the engine, when the session reaches its terminal status. */
public record SessionOutcome(
        SessionStatus status,
        Instant endedAt,
        Integer exitCode,
        String signal,
        String reason,
        OutputPreview preview,
        String artifact,
        String artifactError,
        String artifactErrorCode,
        String captureFile) {

    public SessionOutcome {
        if (!status.isTerminal()) {
            throw new IllegalArgumentException("an outcome needs a terminal status, not " + status.word());
        }
    }
}
