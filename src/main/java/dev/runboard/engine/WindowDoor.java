package dev.runboard.engine;

import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The open window's door. A second {@code runboard open DIR} (or a bare {@code runboard}) while a window
 * of the same data dir is open hands its folder to that window, which shows it and comes to the front,
 * instead of starting a second window over the same sessions. One line each way over a Unix socket
 * beside the supervisor's: {@code open HEX} (the folder's UTF-8 bytes) or {@code raise}, answered
 * {@code ok}; both ends check that the other is this user (SO_PEERCRED), as the supervisor's do.
 */
public final class WindowDoor implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(WindowDoor.class.getName());
    /** A request is one short line; anything longer is not a window's client. */
    private static final int MAX_LINE = 16 * 1024;
    /** How long a knock waits for the window's answer: its door answers from a thread of its own, at once. */
    private static final long ANSWER_MILLIS = 5_000;

    private final ServerSocketChannel server;
    private final Path socket;
    private final Thread acceptor;

    private WindowDoor(ServerSocketChannel server, Path socket, Consumer<Optional<Path>> requests) {
        this.server = server;
        this.socket = socket;
        this.acceptor = new Thread(() -> serve(requests), "runboard-window-door");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /**
     * Opens the door of this data dir's window; {@code requests} gets each folder asked for (empty: just
     * come to the front), on the door's thread. Empty when another window holds the door already.
     */
    public static Optional<WindowDoor> open(Path dataDir, Consumer<Optional<Path>> requests) throws IOException {
        SupervisorPaths paths = SupervisorPaths.of(dataDir);
        Path socket = paths.windowSocket();
        DataDirs.createPrivateDirectories(socket.getParent());
        for (int attempt = 0; attempt < 2; attempt++) {
            ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                server.bind(UnixDomainSocketAddress.of(socket));
                Files.setPosixFilePermissions(socket, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
                return Optional.of(new WindowDoor(server, socket, requests));
            } catch (java.net.BindException e) {
                server.close();
                if (answers(socket)) {
                    return Optional.empty(); // another window of this data dir is open
                }
                Files.deleteIfExists(socket); // left by a window that died: nobody listens on it
            }
        }
        throw new IOException("could not open the window's socket " + socket);
    }

    /** Hands {@code folder} (empty: none, just come to the front) to the data dir's open window; true when one took it. */
    public static boolean knock(Path dataDir, Optional<Path> folder) {
        Path socket = SupervisorPaths.of(dataDir).windowSocket();
        if (!Files.exists(socket, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        String request = folder.map(f -> "open " + HexFormat.of().formatHex(
                f.toAbsolutePath().normalize().toString().getBytes(StandardCharsets.UTF_8))).orElse("raise") + "\n";
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            if (!PeerCheck.sameUser(ch)) {
                return false; // not ours: tell it nothing, open a window of our own
            }
            ch.write(ByteBuffer.wrap(request.getBytes(StandardCharsets.UTF_8)));
            return "ok".equals(readLine(ch, ANSWER_MILLIS));
        } catch (IOException e) {
            return false; // no window there (a file left by one that died): open one
        }
    }

    private static boolean answers(Path socket) {
        try (SocketChannel ch = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private void serve(Consumer<Optional<Path>> requests) {
        while (server.isOpen()) {
            try (SocketChannel ch = server.accept()) {
                if (!PeerCheck.sameUser(ch)) {
                    continue;
                }
                String line = readLine(ch, ANSWER_MILLIS);
                Optional<Path> folder;
                if ("raise".equals(line)) {
                    folder = Optional.empty();
                } else if (line != null && line.startsWith("open ")) {
                    folder = Optional.of(Path.of(new String(HexFormat.of().parseHex(line.substring(5)), StandardCharsets.UTF_8)));
                } else {
                    continue;
                }
                ch.configureBlocking(true);
                ch.write(ByteBuffer.wrap("ok\n".getBytes(StandardCharsets.UTF_8)));
                requests.accept(folder);
            } catch (java.nio.channels.ClosedChannelException e) {
                return; // closed: the window is going
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, "a request at the window's door failed", e);
            }
        }
    }

    /** One line (without its newline) within {@code millis}, or null: nothing, too long, or too late. */
    private static String readLine(SocketChannel ch, long millis) throws IOException {
        ch.configureBlocking(false);
        ByteBuffer buf = ByteBuffer.allocate(MAX_LINE);
        long deadline = System.nanoTime() + millis * 1_000_000;
        try (Selector selector = Selector.open()) {
            ch.register(selector, SelectionKey.OP_READ);
            while (buf.hasRemaining()) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left <= 0 || selector.select(left) == 0 && System.nanoTime() >= deadline) {
                    return null;
                }
                selector.selectedKeys().clear();
                int n = ch.read(buf);
                if (n < 0) {
                    return null;
                }
                for (int i = 0; i < buf.position(); i++) {
                    if (buf.get(i) == '\n') {
                        return new String(buf.array(), 0, i, StandardCharsets.UTF_8);
                    }
                }
            }
            return null;
        }
    }

    @Override
    public void close() {
        try {
            server.close();
            Files.deleteIfExists(socket);
        } catch (IOException e) {
            LOG.log(Level.FINE, "could not remove the window's socket " + socket, e);
        }
    }
}
