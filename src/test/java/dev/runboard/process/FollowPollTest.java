package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionState;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.DataDirs;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A window's follower lists {@code sessions/} only when its time moved (or a listing found a folder
 * without its record yet): sessions made, removed, and made a moment before their record are all
 * still seen. The folder's time is set back by hand where the test needs "a while ago", so nothing
 * here waits for a clock.
 */
class FollowPollTest {
    @TempDir
    Path dataDir;

    @Test
    void sessionsMadeRemovedAndMadeBeforeTheirRecordAreAllSeen() throws Exception {
        SessionStore store = new SessionStore(dataDir);
        save(store, 0);
        save(store, 1);
        age(store, 60);
        try (SupervisedSessions view = new SupervisedSessions(EngineConfig.forDataDir(dataDir), SupervisorClient.forDataDir(dataDir))) {
            view.load();
            view.poll();
            assertEquals(List.of(id(0), id(1)), ids(view));

            // A folder first, its record a moment later (as a start leaves them): the listing in between
            // finds no record, so the next poll lists again although the folder's time did not move.
            DataDirs.createPrivateDirectories(store.dirOf(id(2)));
            FileTime listed = age(store, 50);
            view.poll();
            assertEquals(List.of(id(0), id(1)), ids(view), "no record yet: nothing to show");
            save(store, 2);
            Files.setLastModifiedTime(store.sessionsDir(), listed); // the record is written inside the folder
            view.poll();
            assertEquals(List.of(id(0), id(1), id(2)), ids(view), "its record came after the listing");

            store.delete(id(1), false, null);
            age(store, 40);
            view.poll();
            assertEquals(List.of(id(0), id(2)), ids(view), "a removed folder changes the folder's time");

            save(store, 3);
            view.poll(); // the time now: listed, and not trusted for the next poll (coarse file times)
            assertTrue(view.find(id(3)).isPresent(), "a session made since the last poll");
        }
    }

    /** Sets sessions/'s time to {@code seconds} ago, as if nothing had been made or removed since. */
    private static FileTime age(SessionStore store, int seconds) throws Exception {
        FileTime then = FileTime.from(Instant.now().minusSeconds(seconds));
        Files.setLastModifiedTime(store.sessionsDir(), then);
        return then;
    }

    private static List<String> ids(SupervisedSessions view) {
        return view.sessions().stream().map(dev.runboard.session.Session::id).sorted().toList();
    }

    private static String id(int i) {
        return String.format("20260101-%06d-%06x", i, i);
    }

    private void save(SessionStore store, int i) throws Exception {
        String id = id(i);
        SessionSpec spec = SessionSpec.shell("run " + i).cwd(dataDir).build();
        DataDirs.createPrivateDirectories(store.dirOf(id));
        Path capture = store.file(id, SessionStore.CAPTURE);
        byte[] bytes = ("out " + i + "\n").getBytes(StandardCharsets.UTF_8);
        Files.write(capture, bytes);
        Instant started = Instant.parse("2026-01-01T00:00:00Z").plusSeconds(60L * i);
        SessionOutcome outcome = new SessionOutcome(SessionStatus.COMPLETED, started.plusSeconds(3), 0, null, null,
                OutputPreview.of(bytes, spec.previewBytes()), null, null, null, capture.toString());
        store.save(SessionRecord.of(id, spec, new SessionState.Ended(started, 1000L + i, 1L, outcome, null, null, List.of())));
    }
}
