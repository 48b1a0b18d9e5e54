package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The open window's door: a second open hands its folder over; one door per data dir; a dead window's socket is replaced. */
class WindowDoorTest {
    @TempDir
    Path dataDir;
    @TempDir
    Path project;

    private final BlockingQueue<Optional<Path>> asked = new LinkedBlockingQueue<>();

    @Test
    void aKnockHandsTheFolderToTheOpenWindowAndOnlyOneWindowHoldsTheDoor() throws Exception {
        assertFalse(WindowDoor.knock(dataDir, Optional.of(project)), "no window open: nobody takes it");
        try (WindowDoor door = WindowDoor.open(dataDir, asked::add).orElseThrow()) {
            Path socket = SupervisorPaths.of(dataDir).windowSocket();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));

            assertTrue(WindowDoor.knock(dataDir, Optional.of(project)));
            assertEquals(Optional.of(project.toAbsolutePath().normalize()), asked.poll(20, TimeUnit.SECONDS));
            assertTrue(WindowDoor.knock(dataDir, Optional.empty()), "a bare runboard: the window comes to the front");
            assertEquals(Optional.empty(), asked.poll(20, TimeUnit.SECONDS));

            assertEquals(Optional.empty(), WindowDoor.open(dataDir, asked::add), "a second window of the data dir gets no door");
        }
        assertFalse(Files.exists(SupervisorPaths.of(dataDir).windowSocket()), "a closed window takes its socket with it");
        assertFalse(WindowDoor.knock(dataDir, Optional.of(project)));
    }

    @Test
    void theSocketOfAWindowThatDiedIsReplaced() throws Exception {
        Path socket = SupervisorPaths.of(dataDir).windowSocket();
        Files.createDirectories(socket.getParent());
        try (ServerSocketChannel dead = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            dead.bind(UnixDomainSocketAddress.of(socket)); // closed below without removing its file, as a killed window leaves it
        }
        assertTrue(Files.exists(socket));
        assertFalse(WindowDoor.knock(dataDir, Optional.of(project)), "nobody answers a dead window's socket");
        try (WindowDoor door = WindowDoor.open(dataDir, asked::add).orElseThrow()) {
            assertTrue(WindowDoor.knock(dataDir, Optional.of(project)));
            assertEquals(Optional.of(project.toAbsolutePath().normalize()), asked.poll(20, TimeUnit.SECONDS));
        }
    }
}
