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
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
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
    /** Looked up only when something is logged: starting java.util.logging costs a short exec ~40 ms (docs/BENCHMARKS.md §10). */
    private static Logger log() {
        return Logger.getLogger(HistoryReconciler.class.getName());
    }
    private volatile boolean adopt = true;
    private volatile boolean adoptionWatch;
    /** How long an adopted PTY session's end waits, after its leader's, for the terminal's holder to exit. */
    static final Duration HOLDER_DRAIN_LIMIT = Duration.ofSeconds(2);
    /** Adopted PTY sessions' terminal holders ({@code script}, the leader's parent), by session id. */
    private final Map<String, Holder> holders = new ConcurrentHashMap<>();

    /**
     * The process that copies an adopted PTY session's terminal into its capture. The leader's end
     * does not mean the last output is in the file: the holder may not have copied it yet. It exits
     * right after (it has no other work), so the session ends when both have, or after a limit.
     */
    private record Holder(long pid, long startTicks, long leaderGoneNanos) {
        Holder leaderGone(long now) {
            return new Holder(pid, startTicks, now);
        }
    }

    HistoryReconciler(SessionEngine engine) {
        this.engine = engine;
        this.store = engine.store();
        this.records = new RecordWatch(store);
        this.unrecorded = new UnrecordedLaunch(engine);
    }

    private final UnrecordedLaunch unrecorded;

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
        watchEnds();
        return result.warnings();
    }

    /**
     * Polls the running local sessions this engine manages for their end, every 100 ms
     * ({@link SessionEngine#endIsDue}): the status file, which a wrapper staying on for processes the
     * command left behind writes before it exits; an adopted session's wrapper (not this JVM's child,
     * so no onExit); a command whose wrapper died. Started with the first managed session.
     */
    synchronized void watchEnds() {
        if (adoptionWatch) {
            return;
        }
        adoptionWatch = true;
        engine.timers().scheduleWithFixedDelay(() -> {
            try {
                engine.managedLocal().forEach((s, adopted) -> {
                    if (engine.endIsDue(s, adopted) && holderDone(s)) {
                        holders.remove(s.id());
                        engine.onExit(s, Optional.empty());
                    }
                });
            } catch (RuntimeException e) {
                log().log(Level.WARNING, "looking for ended sessions failed", e);
            }
        }, 100, 100, TimeUnit.MILLISECONDS);
    }

    /** Whether the session's terminal holder, if it has one, has exited (or been waited for long enough). */
    private boolean holderDone(Session s) {
        Holder h = holders.get(s.id());
        if (h == null || !engine.os().isAlive(h.pid()) || engine.os().startTicks(h.pid()) != h.startTicks()) {
            return true;
        }
        long now = System.nanoTime();
        if (h.leaderGoneNanos() == 0) {
            holders.put(s.id(), h.leaderGone(now));
            return false;
        }
        return now - h.leaderGoneNanos() > HOLDER_DRAIN_LIMIT.toNanos();
    }

    /** The leader's parent when it is the session's terminal holder (it carries the holder mark with the session's id). */
    private Optional<Holder> findHolder(Session s) {
        return ProcessHandle.of(s.pid()).flatMap(ProcessHandle::parent)
                .filter(p -> engine.os().hasEnvEntry(p.pid(), PtyLauncher.HOLDER_VAR + "=" + s.id()))
                .map(p -> new Holder(p.pid(), engine.os().startTicks(p.pid()), 0));
    }

    /** Runs {@link #refresh()} every period on the engine's timer. */
    void watchStore(ScheduledExecutorService timers, Duration period) {
        timers.scheduleWithFixedDelay(() -> {
            try {
                refresh();
            } catch (RuntimeException e) {
                log().log(Level.WARNING, "store refresh failed", e);
            }
        }, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Picks up sessions that other runboards started, and follows the ones they manage. */
    void refresh() {
        for (String id : store.ids()) {
            if (engine.knows(id)) {
                continue;
            }
            Optional<SessionRecord> record = records.read(id);
            if (record.isPresent()) {
                engine.add(restore(record.get()));
            } else if (adopt) {
                unrecorded.recordIfAbandoned(id); // an early launch whose client died first
            }
        }
        for (Session s : engine.sessions()) {
            if (!s.status().isTerminal() && !engine.managesHere(s) && !engine.waiting().holds(s)) {
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
        SessionRecord r = record.get();
        s.restoreStack(r.stack(), r.ready());
        if (r.status().isTerminal()) {
            finishFrom(s, r);
        } else {
            if (r.status().isWaiting()) {
                s.waitFor(r.status(), r.reason()); // why it waits changed
            } else if (r.pid() != null && s.pid() == null) {
                s.started(r.pid(), r.pidStartTicks(), r.startedAt()); // it waited, now it runs
            }
            takeOverIfUnmanaged(s);
        }
    }



    private Session restore(SessionRecord record) {
        SessionSpec spec = record.spec().toSpec();
        Path capture = store.file(record.id(), SessionStore.CAPTURE);
        Session s = record.status().isWaiting()
                ? Session.restoreWaiting(record.id(), spec, capture, engine.config().clock(), record.startedAt(),
                        record.status(), record.reason())
                : Session.restore(record.id(), spec, capture, engine.config().clock(), record.pid(),
                        record.pidStartTicks(), record.startedAt(), record.outcome(), record.killReport(), record.resources(),
                        record.events());
        s.restoreStack(record.stack(), record.ready());
        s.slurm(record.slurm());
        if (!s.status().isTerminal()) {
            s.watchOutput(new CaptureTail(capture, spec.previewBytes()));
            takeOverIfUnmanaged(s);
        } else {
            engine.lingering().watch(s); // its wrapper may still hold what the command left behind (a stat read)
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
        // Its owner may have written the end and let go of the lock since this session was last
        // read (exec's own end, say): then the record is final, and is taken as it is, not redone.
        Optional<SessionRecord> latest = s.status().isTerminal() ? Optional.empty() : records.read(s.id());
        if (latest.isPresent() && latest.get().status().isTerminal()) {
            lock.get().close();
            finishFrom(s, latest.get());
            return;
        }
        if (s.status().isWaiting() && launchedAnyway(s)) {
            // Its supervisor launched it and stopped before the record said so: it runs (or ran), and is taken over
            // as any running session is, below; ending it "not started" left its command running unowned, and up
            // started a second copy (CI, on a loaded machine).
            engine.warn("session " + s.id() + "'s record still said " + s.status().word() + ", but its command was"
                    + " launched: taken over as running");
        } else if (s.status().isWaiting()) {
            // It waited for an orchestration that died with its supervisor: nothing will start it now.
            String why = "not started: the supervisor that was to start it stopped first (" + s.waitingReason() + ")";
            engine.waiting().endUnstarted(s, lock.get(), new dev.runboard.session.SessionOutcome(
                    dev.runboard.session.SessionStatus.SKIPPED, engine.config().clock().instant(), null, null, why,
                    dev.runboard.session.OutputPreview.noteOnly(why), null, null, null, null));
            return;
        }
        if (s.spec().isRemote() && s.pid() != null) {
            // Its liveness is on its host, not in this /proc: the owner follows it there again.
            if (adopt) {
                engine.reattach(s, lock.get());
            } else {
                lock.get().close();
            }
            return;
        }
        boolean alive = s.pid() != null && engine.os().isAlive(s.pid())
                && engine.os().startTicks(s.pid()) == s.pidStartTicks();
        if (alive && !adopt) {
            lock.get().close();
            return;
        }
        if (alive && s.spec().pty()) {
            findHolder(s).ifPresent(h -> holders.put(s.id(), h));
        }
        engine.manage(s, null, lock.get(), alive ? s.spec().timeout() : null);
        if (alive) {
            engine.adopted(s);
        } else {
            engine.onExit(s, Optional.empty());
        }
    }

    /**
     * Whether a session whose record says it waits was launched all the same (its wrapper named its
     * command, wrote a status, or still runs); if so it is marked started, with its wrapper when that
     * runs (else its command, which the end below is read from).
     */
    private boolean launchedAnyway(Session s) {
        if (s.spec().isRemote()) {
            return false;
        }
        Optional<WrappedCommand> command = WrappedCommand.read(store.file(s.id(), SessionStore.COMMAND));
        if (command.isEmpty() && !Files.exists(store.file(s.id(), SessionStore.EXIT_STATUS))) {
            return false;
        }
        OsProcesses os = engine.os();
        Optional<ProcInfo> wrapper = os.carrying(s.tag()).stream()
                .filter(p -> os.commandLine(p.pid()).contains("runboard-wrap")).findFirst();
        if (wrapper.isPresent()) {
            s.started(wrapper.get().pid(), os.startTicks(wrapper.get().pid()), s.startedAt());
        } else {
            s.started(command.map(WrappedCommand::pid).orElse(0L), command.map(WrappedCommand::startTicks).orElse(0L),
                    s.startedAt());
        }
        return true;
    }

    /** Ends a followed session as its owner recorded it (nothing is written here). */
    private static void finishFrom(Session s, SessionRecord record) {
        s.recordKill(record.killReport());
        s.recordResources(record.resources());
        s.finish(record.outcome());
    }
}
