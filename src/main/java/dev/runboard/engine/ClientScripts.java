package dev.runboard.engine;

import dev.runboard.store.AtomicFiles;
import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * bin/runboard's Perl clients' code, which the supervisor installs in its data dir's private bin/ as it
 * starts, beside the wrapper: {@code runboard-client.pl} (the thin client, {@link ThinClientCall}) and
 * {@code runboard-protocol.pl} (what it and bin/runboard-exec.pl share). A launcher uses them only while
 * that supervisor is up, so the client it runs is always the one of the supervisor's version; and the
 * checkout's bin/runboard and the packaged launcher run the same copy, from the jar.
 */
final class ClientScripts {
    static final String CLIENT = "runboard-client.pl";
    static final String PROTOCOL = "runboard-protocol.pl";

    private ClientScripts() {
    }

    /** Writes the scripts into {@code dataDir/bin} where they differ from the jar's. */
    static void install(Path dataDir) throws IOException {
        Path bin = DataDirs.createPrivateDirectories(dataDir.resolve("bin"));
        for (String name : List.of(PROTOCOL, CLIENT)) {
            byte[] content;
            try (InputStream in = ClientScripts.class.getResourceAsStream(name)) {
                content = in.readAllBytes();
            }
            Path script = bin.resolve(name);
            if (!Files.exists(script) || !Arrays.equals(Files.readAllBytes(script), content)) {
                AtomicFiles.SYSTEM.write(script, content);
            }
        }
    }
}
