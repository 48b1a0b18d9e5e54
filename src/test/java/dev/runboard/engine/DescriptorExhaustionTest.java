package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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

    @Test
    void runningOutOfDescriptorsNeverEndsTheSupervisor() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/prlimit")), "needs prlimit(1)");
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.client().start(SessionSpec.shell("sleep 60").shell(Path.of("/bin/sh")).cwd(dataDir).build());
            long pid = fx.supervisorPid();
            long open = DescriptorFlood.openFiles(pid);
            String soft = Files.readAllLines(Path.of("/proc/" + pid + "/limits")).stream()
                    .filter(l -> l.startsWith("Max open files")).findFirst().orElseThrow().split("\\s{2,}")[1].strip();
            DescriptorFlood.limitOpenFiles(pid, (open + 8) + ":"); // what it holds, and a few more (the hard limit stays)

            try (DescriptorFlood flood = DescriptorFlood.open(fx.client().paths().socket(), 200)) {
                Path log = dataDir.resolve("supervisor.log");
                Await.until(Duration.ofSeconds(30), "the supervisor to run out of descriptors",
                        () -> { try { return Files.readString(log).contains("cannot take a client's connection"); }
                                catch (IOException e) { return false; } });
                assertTrue(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "it lives on");
            }
            Await.until(Duration.ofSeconds(30), "the same supervisor to answer again", () -> {
                try {
                    return fx.client().show(id).json().path("status").asText().equals("running");
                } catch (IOException e) {
                    return false;
                }
            });
            assertEquals(pid, fx.supervisorPid(), "the same supervisor");
            DescriptorFlood.limitOpenFiles(pid, soft + ":");
            fx.client().kill(id, Signal.KILL, Duration.ZERO);
        }
    }
}
