package dev.runboard.session;

/** Told exactly once, when a session reaches its terminal status, with its final snapshot. */
@FunctionalInterface
public interface SessionListener {
    void sessionEnded(SessionSnapshot finalSnapshot);
}
