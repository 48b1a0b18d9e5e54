package dev.runboard.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.LiveOutput;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/** Session records for store tests: runboard 0.1's records kept as resources, and writing any bytes as a record. */
final class RecordFiles {
    /** Written by runboard 0.1 (commit 26725c8, before records had a schema) with {@code runboard exec}; kept byte for byte. */
    static final List<String> SCHEMA_0_1_IDS = List.of("20261201-000739-3604d5", "20261201-000740-ae9e18");

    private RecordFiles() {
    }

    static byte[] schema01(String id) throws IOException {
        try (InputStream in = RecordFiles.class.getResourceAsStream("/records/schema1/" + id + "/session.json")) {
            if (in == null) {
                throw new IOException("missing test resource for " + id);
            }
            return in.readAllBytes();
        }
    }

    static ObjectNode schema01Tree(String id) throws IOException {
        return (ObjectNode) Json.mapper().readTree(schema01(id));
    }

    /** Writes {@code bytes} as the record of the session folder {@code folder}. */
    static Path write(Path dataDir, String folder, byte[] bytes) throws IOException {
        Path dir = Files.createDirectories(dataDir.resolve("sessions").resolve(folder));
        return Files.write(dir.resolve(SessionStore.RECORD), bytes);
    }

    static Path write(Path dataDir, String folder, ObjectNode tree) throws IOException {
        return write(dataDir, folder, Json.mapper().writeValueAsBytes(tree));
    }

    /**
     * Uses a loaded record the way the engine, {@code list}, {@code show} and the window do: its
     * spec, its outcome and preview, a restored session's snapshot as JSON. Throws if anything fails.
     */
    static String use(SessionStore store, SessionRecord r) {
        Session s = Session.restore(r.id(), r.spec().toSpec(), store.file(r.id(), SessionStore.CAPTURE), Clock.systemUTC(),
                r.pid(), r.pidStartTicks(), r.startedAt(), r.outcome(), r.killReport(), r.resources());
        s.watchOutput(LiveOutput.NONE);
        SessionSnapshot snapshot = s.snapshot();
        r.preview().text();
        r.preview().lastLine();
        if (r.killReport() != null) {
            r.killReport().summary();
        }
        s.spec().displayCommand();
        s.spec().launchArgv();
        return Json.write(snapshot) + Json.write(r);
    }
}
