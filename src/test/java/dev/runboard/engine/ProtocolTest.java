package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.Json;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The client/supervisor protocol's pieces that need no processes: versions, the quick client's JSON, its argv. */
class ProtocolTest {

    @Test
    void aMessageOfAnotherVersionIsRefusedInOneLineThatSaysWhatToDo() throws Exception {
        assertNull(Protocol.versionProblem(Json.mapper().readTree("{\"v\": " + Protocol.VERSION + "}"), "client"));
        String problem = Protocol.versionProblem(Json.mapper().readTree("{\"v\": 99, \"op\": \"start\"}"), "client");
        assertTrue(problem.contains("version 99") && problem.contains("runboard supervisor stop"), problem);
        assertTrue(!problem.contains("\n"), "one line");
        assertTrue(Protocol.versionProblem(Json.mapper().readTree("{}"), "supervisor").contains("version -1"));
    }

    @Test
    void aSocketPathThatWouldNotFitFallsBackToTheDataDir(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
        Path dataDir = Path.of("/home/dev/.local/share/runboard");
        assertEquals(dataDir.resolve("supervisor.sock"), SupervisorPaths.socketFor(dataDir, null));
        // A runtime folder of one's own (0700): used. (One of another user's is not: ForeignSocketTest.)
        Path runtime = java.nio.file.Files.createDirectory(tmp.resolve("run"), java.nio.file.attribute.PosixFilePermissions
                .asFileAttribute(java.nio.file.attribute.PosixFilePermissions.fromString("rwx------")));
        Path inRuntime = SupervisorPaths.socketFor(dataDir, runtime.toString());
        assertTrue(inRuntime.startsWith(runtime.resolve("runboard")), inRuntime.toString());
        assertEquals(dataDir.resolve("supervisor.sock"), SupervisorPaths.socketFor(dataDir, "/" + "r".repeat(120)));
    }

    @Test
    void anOversizedRequestIsRefusedWhileItIsReadNotBufferedWhole() throws Exception {
        // An endless line: only a limit checked while reading ends this (readLine would buffer for ever).
        java.io.Reader endless = new java.io.Reader() {
            @Override
            public int read(char[] buf, int off, int len) {
                java.util.Arrays.fill(buf, off, off + len, 'x');
                return len;
            }

            @Override
            public void close() {
            }
        };
        java.io.IOException refused = org.junit.jupiter.api.Assertions.assertThrows(java.io.IOException.class,
                () -> Protocol.receive(new java.io.BufferedReader(endless)));
        assertTrue(refused.getMessage().contains("longer than the protocol allows"), refused.getMessage());
        assertEquals("ok", Protocol.receive(new java.io.BufferedReader(new java.io.StringReader("{\"op\":\"ok\"}\r\n")))
                .path("op").asText());
        org.junit.jupiter.api.Assertions.assertNull(Protocol.receive(new java.io.BufferedReader(new java.io.StringReader(""))));
    }
}
