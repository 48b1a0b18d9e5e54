package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.session.SessionState;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import dev.runboard.store.StoreException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The one writer of an engine's session records. Writes of one session are serial (the session
 * is the monitor), and once its terminal record is written nothing else is: a kill report saved
 * late, or an end noticed twice, can no longer overwrite how the session ended.
 */
final class SessionRecorder {
    private final SessionStore store;
    private final Consumer<String> warn;
    private final Set<String> final_ = ConcurrentHashMap.newKeySet();

    SessionRecorder(SessionStore store, Consumer<String> warn) {
        this.store = store;
        this.warn = warn;
    }

    /**
     * Writes the session's record from its state now (one value: a record never mixes phases).
     * Returns false, writing nothing, when its terminal record was already written.
     */
    boolean save(Session session) {
        synchronized (session) {
            if (final_.contains(session.id())) {
                return false;
            }
            SessionState state = session.state();
            try {
                SessionRecord record = SessionRecord.of(session.id(), session.spec(), state, session.stack(), session.connection())
                        .withSlurm(session.slurm());
                if (state instanceof SessionState.Ended) {
                    store.saveFinal(record); // into the room set aside at its start: a full disk cannot stop it
                } else {
                    store.save(record);
                }
            } catch (StoreException e) {
                warn.accept(e.getMessage() + ". The session keeps running and its output is still captured; fix the data dir ("
                        + store.dataDir() + ") so its record can be written.");
                return false;
            }
            if (state instanceof SessionState.Ended) {
                final_.add(session.id());
            }
            return true;
        }
    }

    /** Forgets a removed session. */
    void forget(String id) {
        final_.remove(id);
    }
}
