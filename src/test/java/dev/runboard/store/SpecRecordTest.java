package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.runboard.session.SessionSpec;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A spec survives the history file, and records written before a field existed still read. */
class SpecRecordTest {
    @TempDir
    Path dir;

    @Test
    void nicenessIsKeptAndOlderRecordsRanAtNormalPriority() throws Exception {
        SessionSpec spec = SessionSpec.shell("make").shell(Path.of("/bin/sh")).cwd(dir).nice(10).build();
        String json = Json.mapper().writeValueAsString(SpecRecord.of(spec));
        assertEquals(spec, Json.mapper().readValue(json, SpecRecord.class).toSpec());

        String older = "{\"command\":\"make\",\"shell\":\"/bin/sh\",\"cwd\":\"" + dir + "\",\"grace_ms\":2000,\"preview_bytes\":65536}";
        assertEquals(0, Json.mapper().readValue(older, SpecRecord.class).toSpec().nice());
    }
}
