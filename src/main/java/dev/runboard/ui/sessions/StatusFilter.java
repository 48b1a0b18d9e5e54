package dev.runboard.ui.sessions;

import dev.runboard.session.SessionStatus;

/** The status choice of the table filter: every status, or one. */
public enum StatusFilter {
    ALL(null), RUNNING(SessionStatus.RUNNING), PAUSED(SessionStatus.PAUSED), COMPLETED(SessionStatus.COMPLETED), FAILED(SessionStatus.FAILED),
    TIMEOUT(SessionStatus.TIMEOUT), KILLED(SessionStatus.KILLED);

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
