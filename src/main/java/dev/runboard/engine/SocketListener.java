package dev.runboard.engine;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * The process listening on the supervisor's socket, found in /proc: the socket's inodes in
 * {@code /proc/net/unix} (by path), and the process whose descriptors hold one. It is how
 * {@code supervisor stop} ends a supervisor of another protocol version that does not understand
 * this one's stop request: by SIGTERM (its sessions keep running; their wrappers own them), and only
 * once it is sure whom it signals.
 */
final class SocketListener {
    private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

    private SocketListener() {
    }

    /** Sends the listener SIGTERM and waits for it to exit; throws, saying what to do, when it cannot. */
    static void terminate(SupervisorPaths paths) throws IOException {
        long pid = ReplyReader.supervisorPid(paths);
        if (pid <= 0 || !listens(pid, paths.socket())) {
            throw new IOException("the supervisor speaks another protocol version and did not stop when asked, and its pid is"
                    + " not known (" + paths.address() + "): end the process listening on " + paths.socket()
                    + " (sessions keep running)");
        }
        ProcessHandle handle = ProcessHandle.of(pid).orElseThrow(() -> new IOException("the supervisor " + pid + " has exited"));
        handle.destroy(); // SIGTERM: the JVM's shutdown removes its socket; the wrappers keep the sessions
        if (!exited(handle)) {
            throw new IOException("the supervisor " + pid + " (another runboard version) did not exit within "
                    + EXIT_WAIT.toSeconds() + " s of SIGTERM; end it with 'kill -9 " + pid + "' (sessions keep running)");
        }
    }

    /**
     * Waits for the supervisor {@code pid}, asked to stop, to have exited: `supervisor stop` returns once the data dir
     * is let go of (a script that stops it and then removes the data dir or replaces the jar finds nothing still
     * written). Past the wait it says how to end it.
     */
    static void awaitExit(long pid) throws IOException {
        java.util.Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isPresent() && !exited(handle.get())) {
            throw new IOException("the supervisor " + pid + " answered the stop but had not exited " + EXIT_WAIT.toSeconds()
                    + " s later; its log says why; end it with 'kill " + pid + "' (sessions keep running)");
        }
    }

    /**
     * Whether the process has exited within {@link #EXIT_WAIT}, looked at every 5 ms, then less often up to every
     * 50 ms. An exited supervisor is its adoptive parent's to reap (init here, which took up to 2 s): until then it
     * is a zombie, alive to {@code isAlive()} and {@code onExit()}, though it has let go of everything.
     */
    private static boolean exited(ProcessHandle handle) {
        long deadline = System.nanoTime() + EXIT_WAIT.toNanos();
        long pause = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(5);
        while (handle.isAlive() && !zombie(handle.pid())) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(50));
        }
        return true;
    }

    /** Whether {@code pid} has exited and waits to be reaped (state Z in /proc: nothing of it runs or holds files). */
    private static boolean zombie(long pid) {
        try {
            String stat = java.nio.file.Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (IOException | RuntimeException gone) {
            return true;
        }
    }

    /** Whether process {@code pid} holds a socket bound to {@code path} (a listener: what connects there reaches it). */
    static boolean listens(long pid, Path path) {
        Set<String> inodes = inodesOf(path);
        if (inodes.isEmpty()) {
            return false;
        }
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "fd"))) {
            for (Path fd : fds) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException closed) {
                    continue;
                }
                if (target.startsWith("socket:[") && inodes.contains(target.substring(8, target.length() - 1))) {
                    return true;
                }
            }
        } catch (IOException | RuntimeException e) {
            return false;
        }
        return false;
    }

    /** The inodes of sockets bound to {@code path}, from /proc/net/unix (its last column is the path, the one before the inode). */
    private static Set<String> inodesOf(Path path) {
        Set<String> out = new HashSet<>();
        try {
            for (String line : Files.readAllLines(Path.of("/proc/net/unix"))) {
                String[] f = line.trim().split("\\s+");
                if (f.length >= 8 && f[7].equals(path.toString())) {
                    out.add(f[6]);
                }
            }
        } catch (IOException | RuntimeException e) {
            return Set.of();
        }
        return out;
    }
}
