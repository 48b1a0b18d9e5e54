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
    void anUnreachableHostIsExitTwoInOneLine() {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-unreachable", "--cwd", "/tmp",
                "--", "true");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("rb-unreachable is unreachable"), r.err());
    }
}
