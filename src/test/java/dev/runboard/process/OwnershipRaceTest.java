package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import dev.runboard.testing.ShortDeadlines;
import dev.runboard.testing.Stress;
import dev.runboard.testing.TestScale;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer per session: the races that lost data when several code paths could each write a
 * session's record (a kill landing as the command exits, a deadline at the instant of a kill, an
 * end noticed twice while the store watcher runs), each run hundreds of times. Every final record
 * must be terminal, the same as what listeners were told, consistent with its kill report and
 * with the output the command wrote.
 */
@Tag("slow")
@Stress
class OwnershipRaceTest {
    private static final int ROUNDS = TestScale.races(150);

    @TempDir
    Path dataDir;

    @Test
    void aKillAtTheInstantOfANaturalExitLeavesOneTrueRecord() throws Exception {
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            fx.engine().loadHistory();
            fx.engine().watchStore(Duration.ofMillis(1)); // the store watcher that once overwrote a fresh end
            int completed = 0;
            int killed = 0;
            for (int i = 0; i < ROUNDS; i++) {
                Session s = fx.engine().start(fx.sh("echo out-" + i).grace(Duration.ofMillis(200)).build());
                CompletableFuture<SessionSnapshot> told = told(s);
                fx.engine().kill(s, Signal.TERM, Duration.ofMillis(200));
                SessionSnapshot last = told.get();
                SessionRecord record = finalRecord(fx, s);
                assertSame(last, record);
                if (last.status() == SessionStatus.COMPLETED) {
                    completed++;
                    assertEquals(0, last.exitCode());
                    assertEquals("out-" + i + "\n", last.output(), "a command that ended by itself keeps all its output");
                } else {
                    killed++;
                    assertEquals(SessionStatus.KILLED, last.status(), "round " + i + ": " + last.reason());
                    assertNotNull(last.killReport(), "a killed session carries its kill report");
                    assertTrue(("out-" + i + "\n").startsWith(last.output()), "output is a prefix of what was written");
                }
            }
            assertEquals(ROUNDS, completed + killed);
        }
    }

    @Test
    void aDeadlineAtTheInstantOfAKillIsOneOrTheOther() throws Exception {
        Duration deadline = Duration.ofMillis(400);
        try (EngineFixture fx = new EngineFixture(dataDir); ShortDeadlines floor = ShortDeadlines.allow(deadline)) {
            fx.engine().loadHistory();
            int parallel = 10;
            for (int batch = 0; batch < ROUNDS / parallel; batch++) {
                // Ten sessions at a time, each killed at a different instant around its deadline.
                List<Session> sessions = new ArrayList<>();
                List<CompletableFuture<SessionSnapshot>> ends = new ArrayList<>();
                for (int i = 0; i < parallel; i++) {
                    Session s = fx.engine().start(fx.sh("sleep 5").timeout(deadline).grace(Duration.ofMillis(200)).build());
                    sessions.add(s);
                    ends.add(told(s));
                }
                for (int i = 0; i < parallel; i++) {
                    Session s = sessions.get(i);
                    long at = deadline.toMillis() - 15 + 3L * i;
                    Await.until(Duration.ofSeconds(5), "the deadline to come close", () -> s.elapsed().toMillis() >= at || s.status().isTerminal());
                    fx.engine().kill(s, Signal.TERM, Duration.ofMillis(200));
                }
                for (int i = 0; i < parallel; i++) {
                    SessionSnapshot last = ends.get(i).get();
                    String round = "batch " + batch + " session " + i + ": ";
                    assertSame(last, finalRecord(fx, sessions.get(i)));
                    assertNotNull(last.killReport(), round + last.reason());
                    if (last.status() == SessionStatus.TIMEOUT) {
                        assertTrue(last.killReport().reason().startsWith("timeout"), round + last.killReport().reason());
                    } else {
                        assertEquals(SessionStatus.KILLED, last.status(), round + last.reason());
                        assertEquals("killed on request", last.killReport().reason(), round);
                    }
                    assertTrue(last.killReport().clean(), round);
                }
            }
        }
    }

    @Test
    void anEndNoticedTwiceIsRecordedOnce() throws Exception {
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            fx.engine().loadHistory();
            fx.engine().watchStore(Duration.ofMillis(1));
            for (int i = 0; i < ROUNDS; i++) {
                Session s = fx.engine().start(fx.sh("printf 'line-%s\\n' " + i + "; exit 7").build());
                AtomicInteger tellings = new AtomicInteger();
                s.addListener(snap -> tellings.incrementAndGet());
                CompletableFuture<SessionSnapshot> told = told(s);
                // A second observer of the same end (an adoption poll, say) races the real one.
                List<Thread> noticers = new ArrayList<>();
                for (int n = 0; n < 2; n++) {
                    Thread t = new Thread(() -> {
                        Await.until(Duration.ofSeconds(10), "the command to exit", () -> !fx.engine().os().isAlive(s.pid()));
                        fx.engine().onExit(s, Optional.empty());
                    });
                    t.start();
                    noticers.add(t);
                }
                SessionSnapshot last = told.get();
                for (Thread t : noticers) {
                    t.join();
                }
                assertEquals(SessionStatus.FAILED, last.status(), "round " + i + ": " + last.reason());
                assertEquals(7, last.exitCode());
                assertEquals("line-" + i + "\n", last.output());
                assertSame(last, finalRecord(fx, s));
                assertEquals(1, tellings.get(), "listeners hear of the end once");
            }
        }
    }

    @Test
    void aWatcherNeverRedoesTheEndItsOwnerJustRecorded() throws Exception {
        // exec owns its session; a supervisor on the same data dir watches the store. When exec writes
        // the end and lets go of the lock, the watcher must take that record, not finish the session
        // again as "unknown" over it.
        try (EngineFixture exec = new EngineFixture(dataDir); EngineFixture supervisor = new EngineFixture(dataDir)) {
            supervisor.engine().loadHistory();
            supervisor.engine().watchStore(Duration.ofMillis(1));
            for (int i = 0; i < ROUNDS; i++) {
                Session s = exec.engine().start(exec.sh("echo exec-" + i + "; exit 4").build());
                SessionSnapshot last = told(s).get();
                Await.until(Duration.ofSeconds(10), "the watcher to see round " + i + " end",
                        () -> supervisor.engine().find(s.id()).map(w -> w.status().isTerminal()).orElse(false));
                assertEquals(SessionStatus.FAILED, last.status());
                assertSame(last, finalRecord(exec, s));
                Session watched = supervisor.engine().find(s.id()).orElseThrow();
                assertEquals(SessionStatus.FAILED, watched.status(), "round " + i + ": " + watched.outcome().reason());
                assertEquals(4, watched.outcome().exitCode());
            }
        }
    }

    private static CompletableFuture<SessionSnapshot> told(Session s) {
        CompletableFuture<SessionSnapshot> f = new CompletableFuture<>();
        s.addListener(f::complete);
        return f.orTimeout(EngineFixture.WAIT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
    }

    /** The record on disk once everything that might still write has had its chance. */
    private static SessionRecord finalRecord(EngineFixture fx, Session s) throws Exception {
        SessionStore store = new SessionStore(fx.dataDir());
        SessionRecord record = store.load(s.id()).orElseThrow();
        assertNotEquals(SessionStatus.RUNNING, record.status(), "the final record is terminal");
        return record;
    }

    private static void assertSame(SessionSnapshot told, SessionRecord record) {
        assertEquals(told.status(), record.status(), "the record says what the listeners were told");
        assertEquals(told.exitCode(), record.outcome().exitCode());
        assertEquals(told.signal(), record.outcome().signal());
        assertEquals(told.output(), record.preview().text());
        assertEquals(told.killReport(), record.killReport());
    }
}
