package dev.runboard.process;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.Session;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A target nobody plugged in (an engine without ssh, or without Slurm): a spec for it is refused
 * before anything is created, naming the spec's key and what to run instead; a record of one (a
 * session another runboard started there) is never followed, and a kill says which target it needs.
 */
final class UnreachableTarget implements RemoteSessions {
    private final String key;
    private final Function<String, String> cannot;
    private final String sessions;
    private final Function<Session, String> where;

    /**
     * @param key      the spec's key a refusal names ({@code host}, {@code slurm})
     * @param cannot   what this runboard cannot do, given the spec's host
     * @param sessions what kind of session is unavailable, for a launch's error
     * @param where    where a session runs, for a kill's error ("runs on HOST")
     */
    UnreachableTarget(String key, Function<String, String> cannot, String sessions, Function<Session, String> where) {
        this.key = key;
        this.cannot = cannot;
        this.sessions = sessions;
        this.where = where;
    }

    @Override
    public void prepare(String host) {
        throw new InvalidSpecException(key, "this runboard cannot " + cannot.apply(host)
                + ": run it through the supervisor or runboard exec");
    }

    @Override
    public Launched launch(Session session, Path exitStatusFile) throws IOException {
        throw new IOException(sessions + " are not available here");
    }

    @Override
    public Process reattach(Session session, Path exitStatusFile) {
        return null;
    }

    @Override
    public WrapperReport kill(Session session, Signal signal, Duration grace, SessionStatus why, String reason) {
        throw new IllegalStateException("session " + session.id() + " " + where.apply(session)
                + ", which this runboard does not reach");
    }

    @Override
    public boolean signal(Session session, Signal signal) {
        return false;
    }

    @Override
    public void onChange(Consumer<Session> listener) {
    }

    @Override
    public void close() {
    }
}
