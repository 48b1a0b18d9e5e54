package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.store.Json;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A finished session keeps its tree's peak memory and CPU time, in its snapshot JSON and its record. */
class ResourceTotalsTest {
    @TempDir
    Path dataDir;

    @Test
    void peakRssAndCpuTimeAreKeptWhenTheSessionEnds() throws Exception {
        try (EngineFixture fx = new EngineFixture(dataDir)) {
            // About 2 s of CPU, however long a loaded machine takes to give it (a loop until a wall-clock time got
            // 0.39 s of CPU at load 26): at least two of the monitor's once-a-second passes see it.
            SessionSnapshot s = fx.run(fx.sh("i=0; while [ $i -lt 2000000 ]; do i=$((i+1)); done").build());
            assertNotNull(s.resources(), "resources recorded");
            assertTrue(s.resources().cpuSeconds() > 0.5, "cpu " + s.resources().cpuSeconds());
            assertTrue(s.resources().peakRssBytes() > 100_000, "peak rss " + s.resources().peakRssBytes());
            JsonNode json = Json.mapper().readTree(Json.write(s));
            assertTrue(json.get("resources").get("cpu_seconds").asDouble() > 0.5);
            SessionRecord record = new SessionStore(dataDir).load(s.sessionId()).orElseThrow();
            assertTrue(record.resources().peakRssBytes() > 100_000, "kept in the record");
        }
    }
}
