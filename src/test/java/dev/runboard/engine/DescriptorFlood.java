package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Clients holding connections open to a supervisor, up to what its socket's backlog takes: what runs
 * a supervisor out of descriptors (DescriptorExhaustionTest, ProtocolFuzzTest). Closing lets go of them.
 */
final class DescriptorFlood implements AutoCloseable {
    private final List<SocketChannel> held = new ArrayList<>();

    /** Opens up to {@code most} connections to {@code socket}; a full backlog refuses at once and ends the flood. */
    static DescriptorFlood open(Path socket, int most) throws IOException {
        DescriptorFlood flood = new DescriptorFlood();
        UnixDomainSocketAddress address = UnixDomainSocketAddress.of(socket);
        for (int i = 0; i < most; i++) {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            ch.configureBlocking(false); // a full backlog refuses at once rather than blocking the test
            try {
                ch.connect(address);
            } catch (IOException full) {
                ch.close();
                break;
            }
            flood.held.add(ch);
        }
        return flood;
    }

    /** How many connections it holds. */
    int size() {
        return held.size();
    }

    @Override
    public void close() throws IOException {
        for (SocketChannel ch : held) {
            ch.close();
        }
    }

    /** Sets a process's limits of open files with prlimit(1): {@code "SOFT:"}, or {@code "SOFT:HARD"}. */
    static void limitOpenFiles(long pid, String limits) throws Exception {
        Process p = new ProcessBuilder("prlimit", "--pid", Long.toString(pid), "--nofile=" + limits).inheritIO().start();
        assertEquals(0, p.waitFor());
    }

    /** How many descriptors a process holds (its /proc fd folder). */
    static long openFiles(long pid) {
        try (var fds = Files.list(Path.of("/proc/" + pid + "/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
