package dev.runboard.process;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.runboard.session.ProcessTreeSnapshot;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wrapper each launch runs is the one this runboard ships: an installed copy from another version is replaced. */
class WrapperInstallTest {
    private static final String ENTRY = "dev/runboard/process/" + ProcessTreeSnapshot.WRAPPER_SCRIPT;

    @TempDir
    Path dir;

    private static byte[] shipped() throws Exception {
        try (InputStream in = SessionWrapper.class.getResourceAsStream("/" + ENTRY)) {
            return in.readAllBytes();
        }
    }

    @Test
    void aStaleInstalledCopyIsReplacedByTheShippedOne() throws Exception {
        Path data = dir.resolve("data");
        Path script = SessionWrapper.install(data).orElseThrow().prefix(dir.resolve("status"), 0, 0).stream()
                .filter(w -> w.endsWith(ProcessTreeSnapshot.WRAPPER_SCRIPT)).map(Path::of).findFirst().orElseThrow();
        Files.writeString(script, "# an older runboard's wrapper\n");
        SessionWrapper.install(data);
        assertArrayEquals(shipped(), Files.readAllBytes(script));
    }
}
