package dev.runboard.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceWatcherTest {
    @TempDir
    Path root;

    private final LinkedBlockingQueue<WorkspaceLoad> loads = new LinkedBlockingQueue<>();

    @Test
    void editsReloadAndABadEditReportsItsLineWhileTheFolderStaysWatched() throws Exception {
        Path file = root.resolve("runboard.yaml");
        Files.writeString(file, "commands:\n  web:\n    command: ./serve\n");
        try (WorkspaceWatcher ignored = WorkspaceWatcher.start(root, Duration.ofMillis(100), loads::add)) {
            // an edit in place
            Files.writeString(file, "commands:\n  web:\n    command: ./serve\n  test:\n    command: ./test\n");
            WorkspaceLoad edited = next(l -> l.ok() && l.content().commands().size() == 2);
            assertEquals(List.of("web", "test"), List.copyOf(edited.content().commands().keySet()));

            // a broken edit: the load carries the error with its place, not a half-read list
            Files.writeString(file, "commands:\n  web:\n    command: ./serve\n    colour: red\n");
            WorkspaceLoad broken = next(l -> !l.ok());
            assertNull(broken.content());
            assertEquals(4, broken.error().line());

            // replaced by a rename, as editors and git do
            Path tmp = root.resolve("incoming.tmp");
            Files.writeString(tmp, "commands:\n  lint:\n    command: ./lint\n");
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            WorkspaceLoad renamed = next(l -> l.ok() && l.content().commands().containsKey("lint"));
            assertEquals(1, renamed.content().commands().size());

            // a discovery source appearing is noticed too
            Files.writeString(root.resolve("Procfile"), "worker: ./work\n");
            WorkspaceLoad discovered = next(l -> !l.discovered().commands().isEmpty());
            assertEquals("worker", discovered.discovered().commands().get(0).name());
        }
    }

    @Test
    void aBurstOfWritesIsReadOnce() throws Exception {
        Path file = root.resolve("runboard.yaml");
        try (WorkspaceWatcher ignored = WorkspaceWatcher.start(root, Duration.ofMillis(300), loads::add)) {
            for (int i = 1; i <= 20; i++) {
                StringBuilder sb = new StringBuilder("commands:\n");
                for (int j = 1; j <= i; j++) {
                    sb.append("  c").append(j).append(":\n    command: echo ").append(j).append('\n');
                }
                Files.writeString(file, sb);
            }
            WorkspaceLoad last = next(l -> l.ok() && l.content().commands().size() == 20);
            assertNotNull(last);
            assertTrue(loads.size() <= 1, "at most one more reading after the final one: " + loads.size());
        }
    }

    @Test
    void recentListKeepsTheLatestFirstWithoutDuplicates() throws Exception {
        RecentWorkspaces recent = RecentWorkspaces.inDataDir(root.resolve("data"));
        assertTrue(recent.list().isEmpty());
        recent.add(root.resolve("a"));
        recent.add(root.resolve("b"));
        recent.add(root.resolve("a"));
        assertEquals(List.of(root.resolve("a"), root.resolve("b")), recent.list());
        for (int i = 0; i < 15; i++) {
            recent.add(root.resolve("p" + i));
        }
        assertEquals(RecentWorkspaces.MAX, recent.list().size());
        Files.writeString(recent.file(), "{ not json");
        assertTrue(recent.list().isEmpty(), "a damaged file is an empty list");
    }

    /** The first load that matches, waiting up to 10 s; earlier ones are dropped. */
    private WorkspaceLoad next(java.util.function.Predicate<WorkspaceLoad> wanted) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            WorkspaceLoad l = loads.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (l != null && wanted.test(l)) {
                return l;
            }
        }
        throw new AssertionError("no matching reload within 10 s");
    }
}
