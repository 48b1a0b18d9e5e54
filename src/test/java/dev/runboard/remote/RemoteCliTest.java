package dev.runboard.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SupervisorFixture;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code runboard exec --host}: the command's exit code as ours; a host that cannot run it is exit 2 in one line. */
class RemoteCliTest {
    static SshdFixture sshd;

    @TempDir
    Path dataDir;

    @BeforeAll
    static void startSshd() throws Exception {
        sshd = SshdFixture.start();
        System.setProperty("runboard.ssh.config", sshd.config.toString());
    }

    @AfterAll
    static void stopSshd() throws Exception {
        System.clearProperty("runboard.ssh.config");
        if (sshd != null) {
            sshd.close();
        }
    }

    @Test
    void execRunsOnTheHostAndExitsWithItsCode() {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-remote", "--cwd", "/tmp",
                "--", "echo from $(id -un); exit 5");
        assertEquals(5, r.exit(), r.err());
        assertTrue(r.out().contains("\"host\" : \"rb-remote\"") || r.out().contains("\"host\":\"rb-remote\""), r.out());
        assertTrue(r.out().contains("from " + sshd.user), r.out());
    }

    @Test
    void startRunsOnTheHostThroughTheSupervisorAndAKilledSupervisorsSessionIsReattached() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            SupervisorFixture.Result started = fx.cli("start", "--host", "rb-remote", "--cwd", "/tmp", "--",
                    "echo one; sleep 4; echo two; exit 4");
            assertEquals(0, started.exit(), started.err());
            String id = started.out().strip();
            dev.runboard.process.Await.until(java.time.Duration.ofSeconds(60), "the first line",
                    () -> fx.cli("show", id).out().contains("one"));
            long first = fx.supervisorPid();
            ProcessHandle.of(first).ifPresent(ProcessHandle::destroyForcibly); // the owner dies mid-run
            SupervisorFixture.Result waited = fx.cli("wait", id); // brings a new supervisor, which re-attaches
            assertEquals(4, waited.exit(), waited.out() + waited.err());
            String shown = fx.cli("show", id).out();
            assertTrue(shown.contains("one\\ntwo\\n") || shown.contains("one\ntwo"), shown);
            assertTrue(shown.contains("rb-remote"), shown);
            SupervisorFixture.Result refused = fx.cli("start", "--host", "rb-badauth", "--cwd", "/tmp", "--", "true");
            assertEquals(2, refused.exit(), refused.out() + refused.err());
            assertTrue(refused.err().contains("rb-badauth refused the login"), refused.err());
        }
    }

    @Test
    void anUnreachableHostIsExitTwoInOneLine() {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-unreachable", "--cwd", "/tmp",
                "--", "true");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("rb-unreachable is unreachable"), r.err());
    }
}
