package dev.runboard.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Who listens on a local TCP port, as Linux says: the listening sockets of {@code /proc/net/tcp} and
 * {@code tcp6} (their inode and owner uid), matched to the {@code socket:[INODE]} links under
 * {@code /proc/PID/fd} of a session's process tree. A readiness probe asks it so that a port held by
 * another program (a second stack's database) never makes this session ready. Another user's
 * processes' descriptors cannot be read, so a listener of another uid (or one not in this network
 * namespace, or on another host) is {@link Owner#NOT_SEEN}: the probe then trusts the connection.
 */
public final class ListenerOwner {
    public enum Owner {
        /** A process of the session's tree holds the listening socket. */
        TREE,
        /** Another process of this user holds it: not the session's listener. */
        OTHER,
        /** Nobody can be told: another user's socket, or no listener seen in this namespace. */
        NOT_SEEN
    }

    private static final Path PROC = Path.of("/proc");
    /** TCP_LISTEN in /proc/net/tcp's {@code st} column. */
    private static final String LISTEN = "0A";

    private ListenerOwner() {
    }

    /** Who listens on {@code host}:{@code port} (host as the probe names it), for the tree below {@code rootPid}. */
    public static Owner of(String host, int port, long rootPid) {
        if (!isLocal(host)) {
            return Owner.NOT_SEEN;
        }
        Set<Long> inodes = new HashSet<>();
        boolean someoneElses = false;
        long me = myUid();
        for (String table : List.of("net/tcp", "net/tcp6")) {
            for (Listener l : listeners(PROC.resolve(table), port)) {
                if (l.uid() == me && me >= 0) {
                    inodes.add(l.inode());
                } else {
                    someoneElses = true;
                }
            }
        }
        if (inodes.isEmpty()) {
            return Owner.NOT_SEEN; // nothing of ours listens there: another user's, or another namespace's
        }
        Set<Long> tree = new LinkedHashSet<>();
        tree.add(rootPid);
        tree.addAll(ProcFiles.table().descendantsOf(rootPid));
        for (long pid : tree) {
            if (holdsAny(pid, inodes)) {
                return Owner.TREE;
            }
        }
        // Ours, and not in the tree: another program of this user holds the port (unless someone else's also
        // listens there, on another address: then who answered the connection cannot be told).
        return someoneElses ? Owner.NOT_SEEN : Owner.OTHER;
    }

    record Listener(long inode, long uid) {
    }

    /** The listening sockets of one /proc/net table on this port. */
    static List<Listener> listeners(Path table, int port) {
        List<Listener> out = new java.util.ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(table, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return out;
        }
        for (int i = 1; i < lines.size(); i++) {
            String[] f = ProcFiles.words(lines.get(i).trim());
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
            if (f.length < 10 || !LISTEN.equals(f[3])) {
                continue;
            }
            int colon = f[1].lastIndexOf(':');
            try {
                if (colon < 0 || Integer.parseInt(f[1].substring(colon + 1), 16) != port) {
                    continue;
                }
                out.add(new Listener(Long.parseLong(f[9]), Long.parseLong(f[7])));
            } catch (NumberFormatException e) {
                // a line of another layout: not a listener we can name
            }
        }
        return out;
    }

    private static boolean holdsAny(long pid, Set<Long> inodes) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(PROC.resolve(Long.toString(pid)).resolve("fd"))) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException | UnsupportedOperationException e) {
                    continue; // closed meanwhile
                }
                if (target.startsWith("socket:[") && target.endsWith("]")) {
                    try {
                        if (inodes.contains(Long.parseLong(target.substring(8, target.length() - 1)))) {
                            return true;
                        }
                    } catch (NumberFormatException ignored) {
                        // not an inode
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            return false; // gone, or not ours to read
        }
        return false;
    }

    private static long myUid() {
        long[] uids = ProcFiles.uidsOf(ProcessHandle.current().pid());
        return uids == null ? -1 : uids[1];
    }

    /** Whether the host is this machine (loopback, the wildcard, or one of its addresses). */
    private static boolean isLocal(String host) {
        try {
            InetAddress a = InetAddress.getByName(host);
            return a.isLoopbackAddress() || a.isAnyLocalAddress() || NetworkInterface.getByInetAddress(a) != null;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
