package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import java.io.InputStream;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** A real engine on a temp data dir, and what tests need to wait for and verify real processes. */
public final class EngineFixture implements AutoCloseable {
    public static final Duration WAIT = Duration.ofSeconds(30);
    private static final Duration LEAVING = Duration.ofSeconds(10);
    private final SessionEngine engine;
    private final Path dataDir;

    public EngineFixture(Path dataDir) {
        this(EngineConfig.forDataDir(dataDir), dataDir);
    }

    public EngineFixture(EngineConfig config, Path dataDir) {
        this.engine = new SessionEngine(config);
        this.dataDir = dataDir;
        try {
            // The sessions' cwd (sh below), made here: an engine makes its data dir's folders as it needs them.
            java.nio.file.Files.createDirectories(dataDir);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public SessionEngine engine() {
        return engine;
    }

    public Path dataDir() {
        return dataDir;
    }

    public SessionSpec.Builder sh(String command) {
        return SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(dataDir);
    }

    /** Runs a spec to its end and returns the final snapshot (the one listeners get). */
    public SessionSnapshot run(SessionSpec spec) throws Exception {
        return awaitEnd(engine.start(spec));
    }

    public static SessionSnapshot awaitEnd(Session s) throws Exception {
        return awaitEnd(s, WAIT);
    }

    /** As {@link #awaitEnd(Session)}, waiting up to {@code limit} (a gigabyte through ssh, say). */
    public static SessionSnapshot awaitEnd(Session s, Duration limit) throws Exception {
        CompletableFuture<SessionSnapshot> ended = new CompletableFuture<>();
        s.addListener(ended::complete);
        return ended.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The SHA-256 of everything {@code in} gives, in hex; closes it. */
    public static String sha256(InputStream in) throws Exception {
        MessageDigest digest = MessageDigest.getInstance("SHA-256");
        try (in) {
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) > 0; ) {
                digest.update(buffer, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    /** Live processes that carry the session's tag: what a user would still find with ps. */
    public static List<Long> liveTagged(Session s) {
        OsProcesses os = OsProcesses.forThisMachine();
        return os.snapshot().all().stream().filter(ProcInfo::alive)
                .filter(p -> os.hasEnvEntry(p.pid(), s.tag())).map(ProcInfo::pid).toList();
    }

    /**
     * Asserts that none of the session's processes is left in /proc. A session can end a moment before its last
     * process leaves /proc (a remote wrapper exits just after writing its status; a process sent SIGKILL dies when
     * next scheduled), so a loaded machine gets a few seconds; a process left behind stays and fails this.
     */
    public static void assertNoneLeft(Session s, String message) {
        long deadline = System.nanoTime() + LEAVING.toNanos();
        List<Long> live = liveTagged(s);
        for (int round = 0; !live.isEmpty() && System.nanoTime() < deadline; round++) {
            dev.runboard.testing.Poll.pause(round); // each look reads every process's environment in /proc
            live = liveTagged(s);
        }
        assertEquals(List.of(), live, message);
    }

    @Override
    public void close() {
        engine.killAll(Duration.ZERO);
        for (Session s : engine.sessions()) {
            assertNoneLeft(s, "processes of " + s.id() + " left behind by the test");
        }
        engine.close();
    }
}
