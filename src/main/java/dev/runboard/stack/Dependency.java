package dev.runboard.stack;

import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;

/**
 * Something a waiting session waits for, under one of the Contract's conditions ({@code started},
 * {@code ready}, {@code succeeded}, {@code ended}): a command of the same stack (its whole run
 * chain, restarts included) or, for {@code start --after ID}, one session.
 */
interface Dependency {
    /** What to call it in a reason: the command's name or the session's id. */
    String label();

    boolean met(String condition);

    /** True once the condition can no longer be met; {@link #why()} then says what happened. */
    boolean never(String condition);

    String why();

    /** A command of the file with {@code disabled: true}: it gets no session, and whatever waits on it is skipped. */
    record Disabled(String name) implements Dependency {
        @Override
        public String label() {
            return name;
        }

        @Override
        public boolean met(String condition) {
            return false;
        }

        @Override
        public boolean never(String condition) {
            return true;
        }

        @Override
        public String why() {
            return name + " is disabled";
        }
    }

    /** One session, for {@code --after ID[:condition]}. */
    record OfSession(Session session) implements Dependency {
        @Override
        public String label() {
            return session.id();
        }

        @Override
        public boolean met(String condition) {
            SessionStatus st = session.status();
            boolean started = session.pid() != null;
            return switch (condition) {
                case "started" -> started;
                case "ready" -> Boolean.TRUE.equals(session.ready()) || started && session.ready() == null;
                case "succeeded" -> st == SessionStatus.COMPLETED;
                default -> st.isTerminal();
            };
        }

        @Override
        public boolean never(String condition) {
            return session.status().isTerminal() && !met(condition);
        }

        @Override
        public String why() {
            return session.status().word();
        }
    }
}
