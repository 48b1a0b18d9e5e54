package dev.runboard.ui.sessions;

import dev.runboard.session.SessionStatus;

/**
 * The status choice of the table filter: every status, or one. One choice per status of the
 * Contract (DESIGN.md), in its order, so a waiting or lost session can be found as a finished one can.
 */
public enum StatusFilter {
    ALL(null), PENDING(SessionStatus.PENDING), QUEUED(SessionStatus.QUEUED), RUNNING(SessionStatus.RUNNING),
    PAUSED(SessionStatus.PAUSED), COMPLETED(SessionStatus.COMPLETED), FAILED(SessionStatus.FAILED),
    TIMEOUT(SessionStatus.TIMEOUT), KILLED(SessionStatus.KILLED), SKIPPED(SessionStatus.SKIPPED), UNKNOWN(SessionStatus.UNKNOWN);

    private final SessionStatus status;

    StatusFilter(SessionStatus status) {
        this.status = status;
    }

    public boolean accepts(SessionStatus s) {
        return status == null || status == s;
    }

    @Override
    public String toString() {
        return status == null ? "All statuses" : status.word();
    }
}
