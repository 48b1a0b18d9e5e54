package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.store.SessionLock;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Brings the store's sessions into an engine. Finished records come back as they were. A record
 * that says "running" is reconciled: if nobody manages it and its process (same pid, same start
 * time) still runs, it is adopted; if it ended meanwhile, it is finalised from the exit status its
 * wrapper recorded, or marked unknown; if another runboard manages it, it is followed read-only.
 */
final class HistoryReconciler {
    private final SessionEngine engine;
    private final SessionStore store;
    private final RecordWatch records;
    private static final Logger LOG = Logger.getLogger(HistoryReconciler.class.getName());
    private volatile boolean adopt = true;
    private volatile boolean adoptionWatch;

    HistoryReconciler(SessionEngine engine) {
        this.engine = engine;
        this.store = engine.store();
        this.records = new RecordWatch(store);
    }

    /** Whether to take over running sessions nobody manages (the window, {@code wait}) or only finalise ended ones (quick CLI looks). */
    void adopt(boolean adopt) {
        this.adopt = adopt;
    }

    List<String> load() {
        SessionStore.LoadResult result = store.loadAll();
        for (SessionRecord record : result.records()) {
            if (!engine.knows(record.id())) {
                engine.add(restore(record));
            }
        }
        watchAdopted();
        return result.warnings();
    }

    /** Polls adopted sessions (not this JVM's children, so no onExit) for their end, every 100 ms. */
    private void watchAdopted() {
        if (adoptionWatch) {
            return;
        }
        adoptionWatch = true;
        engine.timers().scheduleWithFixedDelay(() -> {
            for (Session s : engine.adopted()) {
                if (!engine.os().isAlive(s.pid()) || engine.os().startTicks(s.pid()) != s.pidStartTicks()) {
                    engine.onExit(s, Optional.empty());
                }
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
    }

    /** Runs {@link #refresh()} every period on the engine's timer. */
    void watchStore(ScheduledExecutorService timers, Duration period) {
        timers.scheduleWithFixedDelay(() -> {
            try {
                refresh();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "store refresh failed", e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Picks up sessions that other runboards started, and follows the ones they manage. */
    void refresh() {
        for (String id : store.ids()) {
            if (engine.knows(id)) {
                continue;
            }
            records.read(id).ifPresent(record -> engine.add(restore(record)));
        }
        for (Session s : engine.sessions()) {
            if (!s.status().isTerminal() && !engine.managesHere(s)) {
                follow(s);
            }
        }
    }

    /**
     * Catches up with a session another runboard manages. Its record is re-read only when the file
     * changed (this runs every poll period, and a record carries the whole preview).
     */
    private void follow(Session s) {
        if (!records.changed(s.id())) {
            takeOverIfUnmanaged(s); // its manager may have died without a word
            return;
        }
        Optional<SessionRecord> record = records.read(s.id());
        if (record.isEmpty()) {
            return;
        }
        if (record.get().status().isTerminal()) {
            s.recordKill(record.get().killReport());
            s.recordResources(record.get().resources());
            s.finish(record.get().outcome());
        } else {
            takeOverIfUnmanaged(s);
        }
    }



    private Session restore(SessionRecord record) {
        SessionSpec spec = record.spec().toSpec();
        Path capture = store.file(record.id(), SessionStore.CAPTURE);
        Session s = Session.restore(record.id(), spec, capture, engine.config().clock(), record.pid(),
                record.pidStartTicks(), record.startedAt(), record.outcome(), record.killReport(), record.resources(), record.events());
        if (!s.status().isTerminal()) {
            s.watchOutput(new CaptureTail(capture, spec.previewBytes()));
            takeOverIfUnmanaged(s);
        }
        return s;
    }

    /** Takes the session's lock if its manager is gone; then adopts it (still running) or finalises it (ended). */
    private void takeOverIfUnmanaged(Session s) {
        Optional<SessionLock> lock;
        try {
            lock = SessionLock.tryAcquire(store.file(s.id(), SessionStore.LOCK));
        } catch (IOException e) {
            engine.warn("cannot lock session " + s.id() + ": " + e.getMessage());
            return;
        }
        if (lock.isEmpty()) {
            return; // another runboard manages it: follow it read-only
        }
        boolean alive = s.pid() != null && engine.os().isAlive(s.pid())
                && engine.os().startTicks(s.pid()) == s.pidStartTicks();
        if (alive && !adopt) {
            lock.get().close();
            return;
        }
        engine.manage(s, null, lock.get(), alive ? s.spec().timeout() : null);
        if (alive) {
            engine.adopted(s);
        } else {
            engine.onExit(s, Optional.empty());
        }
    }
}
