package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Clients that hold more connections than the supervisor has descriptors left make it refuse (the
 * connections wait in the socket's backlog), never end it: once they close, the same supervisor
 * answers, and its sessions ran on.
 */
class DescriptorExhaustionTest {
    @TempDir
    Path dataDir;

    /** Sets the process's soft limit of open files (its hard limit stays). */
    private static void prlimit(long pid, String soft) throws Exception {
        Process p = new ProcessBuilder("prlimit", "--pid", Long.toString(pid), "--nofile=" + soft + ":").inheritIO().start();
        assertEquals(0, p.waitFor());
    }

    @Test
    void runningOutOfDescriptorsNeverEndsTheSupervisor() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "needs prlimit(1)");
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.client().start(SessionSpec.shell("sleep 60").shell(Path.of("/bin/sh")).cwd(dataDir).build());
            long pid = fx.supervisorPid();
            long open;
            try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
                open = fds.count();
            }
            String soft = Files.readAllLines(Path.of("/proc/" + pid + "/limits")).stream()
                    .filter(l -> l.startsWith("Max open files")).findFirst().orElseThrow().split("\\s{2,}")[1].strip();
            prlimit(pid, Long.toString(open + 8)); // what it holds, and a few more

            List<SocketChannel> held = new ArrayList<>();
            UnixDomainSocketAddress address = UnixDomainSocketAddress.of(fx.client().paths().socket());
            try {
                for (int i = 0; i < 200; i++) {
                    SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
                    ch.configureBlocking(false); // a full backlog refuses at once rather than blocking the test
                    try {
                        ch.connect(address);
                    } catch (IOException full) {
                        ch.close();
                        break;
                    }
                    held.add(ch);
                }
                Path log = dataDir.resolve("supervisor.log");
                Await.until(Duration.ofSeconds(30), "the supervisor to run out of descriptors",
                        () -> { try { return Files.readString(log).contains("cannot take a client's connection"); }
                                catch (IOException e) { return false; } });
                assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "it lives on");
            } finally {
                for (SocketChannel ch : held) {
                    ch.close();
                }
            }
            Await.until(Duration.ofSeconds(30), "the same supervisor to answer again", () -> {
                try {
                    return fx.client().show(id).path("status").asText().equals("running");
                } catch (IOException e) {
                    return false;
                }
            });
            assertEquals(pid, fx.supervisorPid(), "the same supervisor");
            prlimit(pid, soft);
            fx.client().kill(id, Signal.KILL, Duration.ZERO);
        }
    }
}
