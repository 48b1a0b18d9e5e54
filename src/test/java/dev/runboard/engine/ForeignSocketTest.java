package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.Await;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client talks only to a supervisor of its own user: a runtime folder another user controls (what
 * {@code sudo -E} keeps) is not used, and a socket served by another user's listener is refused
 * before a byte of a request (a spec, its environment, its keys) reaches it.
 */
class ForeignSocketTest {
    private static final int NOBODY = 65534;

    @TempDir
    Path dataDir;
    @TempDir
    Path elsewhere;

    @Test
    void aRuntimeFolderOthersCanWriteIsNotUsedForTheSocket() throws Exception {
        Path shared = Files.createDirectory(elsewhere.resolve("run"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        assertEquals(dataDir.resolve("supervisor.sock"), SupervisorPaths.socketFor(dataDir, shared.toString()));
        Path mine = Files.createDirectory(elsewhere.resolve("mine"), PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwx------")));
        assertTrue(SupervisorPaths.socketFor(dataDir, mine.toString()).startsWith(mine), "a folder of one's own is used");
    }

    @Test
    void aSocketServedByAnotherUserIsRefusedAndHearsNothing() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "needs root to listen as another user");
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/setpriv")), "needs setpriv(1)");
        // Another user's runtime folder, as sudo -E hands it over, with that user's listener in it.
        Files.setPosixFilePermissions(elsewhere, PosixFilePermissions.fromString("rwx--x--x")); // they may pass through
        Path theirs = Files.createDirectory(elsewhere.resolve("theirs"));
        Files.setPosixFilePermissions(theirs, PosixFilePermissions.fromString("rwx------"));
        Files.setOwner(theirs, theirs.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody"));
        assertEquals(dataDir.resolve("supervisor.sock"), SupervisorPaths.socketFor(dataDir, theirs.toString()),
                "their folder is not used");
        Path socket = theirs.resolve("supervisor.sock");
        Path heard = theirs.resolve("heard");
        Process listener = new ProcessBuilder("setpriv", "--reuid=" + NOBODY, "--regid=" + NOBODY, "--clear-groups", "perl", "-e",
                "$| = 1; socket(S, 1, 1, 0) or die; bind(S, pack('S Z*', 1, $ARGV[0])) or die \"bind: $!\"; listen(S, 5) or die;"
                        + " print \"up\\n\";"
                        + " while (accept(C, S)) { my $n = sysread(C, my $b, 65536) // 0;"
                        + " open(F, '>>', $ARGV[1]) or die; print F \"$n\\n\"; close(F); close(C) }",
                socket.toString(), heard.toString()).redirectErrorStream(true).start();
        try {
            // Listening, not only bound: the socket file exists from bind(), and a connect before listen() is refused.
            assertEquals("up", new String(listener.getInputStream().readNBytes(3), java.nio.charset.StandardCharsets.UTF_8).strip());
            SupervisorPaths impostor = new SupervisorPaths(dataDir, socket, dataDir.resolve("supervisor.lock"),
                    dataDir.resolve("supervisor.log"));
            PeerCheck.Impostor refused = assertThrows(PeerCheck.Impostor.class, () -> SupervisorSocket.connect(impostor));
            assertTrue(refused.getMessage().startsWith("refusing the supervisor socket " + socket + ": it is served by user nobody"),
                    refused.getMessage());
            // The whole line: the file exists a moment before the listener has written and closed it.
            Await.until(Duration.ofSeconds(20), "the listener to see the connection end", () -> {
                try {
                    return Files.exists(heard) && Files.readString(heard).endsWith("\n");
                } catch (java.io.IOException e) {
                    return false;
                }
            });
            assertEquals(List.of("0"), Files.readAllLines(heard), "not one byte reached it");
        } finally {
            listener.destroyForcibly();
            listener.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
