package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.KillReport;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrapper's deadline kill lists what it signalled by name, and a name may hold any bytes: a
 * process renamed to bytes that are not UTF-8 cost the session its whole kill report (the status
 * file was read as strict UTF-8 and the report dropped). The report is kept, the name shown with
 * its bad byte replaced.
 */
class KillReportBytesTest {
    @TempDir
    Path dataDir;

    @Test
    void aDeadlineKillOfAProcessWithANonUtf8NameKeepsItsReport() throws Exception {
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            SessionSnapshot last = fx.run(fx.sh("trap '' TERM; exec -a \"$(printf 'sleep\\377x')\" sleep 600")
                    .shell(Path.of("/bin/bash")).timeout(Duration.ofSeconds(1)).grace(Duration.ofMillis(200)).build());
            assertEquals(SessionStatus.TIMEOUT, last.status());
            KillReport report = last.killReport();
            assertNotNull(report, "the wrapper's report is the session's");
            assertTrue(report.signalled().stream().anyMatch(p -> p.command().startsWith("sleep\uFFFDx")), report.toString());
            assertTrue(report.survivors().isEmpty(), report.toString());
        }
    }
}
