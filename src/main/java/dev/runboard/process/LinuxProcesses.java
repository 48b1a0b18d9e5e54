package dev.runboard.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Process groups via {@code setsid}, signals via {@code kill(2)}, the process table from {@code /proc}. */
public final class LinuxProcesses implements OsProcesses {
    private static final Path PROC = Path.of("/proc");
    private static final int ESRCH = 3;

    /** kill(2) straight from libc: no /bin/kill spawned per signal, and group signals (negative pid) work. */
    interface LibC extends Library {
        int kill(int pid, int sig) throws LastErrorException;
    }

    private static final class Holder {
        static final LibC LIBC = Native.load("c", LibC.class);
    }

    private final List<String> launchPrefix;

    public LinuxProcesses() {
        this.launchPrefix = probeLaunchPrefix();
    }

    /**
     * {@code setsid} makes the command a group (and session) leader without forking, since a JVM
     * child is not a group leader. {@code env --default-signal} (coreutils 8.31+) resets signal
     * dispositions so nothing the JVM inherited as ignored (SIGINT in a background job, SIGPIPE)
     * reaches the command.
     */
    private static List<String> probeLaunchPrefix() {
        try {
            Process p = new ProcessBuilder("env", "--default-signal", "true")
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor() == 0) {
                return List.of("setsid", "env", "--default-signal");
            }
        } catch (IOException e) {
            // no env on PATH: fall through to setsid alone
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.of("setsid");
    }

    @Override
    public List<String> launchPrefix() {
        return launchPrefix;
    }

    @Override
    public boolean supportsTreeKill() {
        return true;
    }

    @Override
    public Optional<String> limitations() {
        return Optional.empty();
    }

    @Override
    public boolean signalGroup(long pgid, Signal signal) {
        if (pgid <= 1) {
            throw new IllegalArgumentException("refusing to signal process group " + pgid);
        }
        return kill(-pgid, signal);
    }

    @Override
    public boolean signal(long pid, Signal signal) {
        if (pid <= 1 || pid == ProcessHandle.current().pid()) {
            throw new IllegalArgumentException("refusing to signal pid " + pid);
        }
        return kill(pid, signal);
    }

    private static boolean kill(long target, Signal signal) {
        try {
            Holder.LIBC.kill(Math.toIntExact(target), signal.number());
            return true;
        } catch (LastErrorException e) {
            if (e.getErrorCode() == ESRCH) {
                return false;
            }
            throw new IllegalStateException("kill(" + target + ", " + signal + ") failed: errno " + e.getErrorCode(), e);
        }
    }

    @Override
    public boolean isAlive(long pid) {
        return readStat(pid).map(ProcInfo::alive).orElse(false);
    }

    @Override
    public long startTicks(long pid) {
        return readStat(pid).map(ProcInfo::startTicks).orElse(0L);
    }

    @Override
    public ProcessTable snapshot() {
        List<ProcInfo> all = new ArrayList<>(256);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC)) {
            for (Path dir : dirs) {
                String name = dir.getFileName().toString();
                if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
                    readStat(dir).ifPresent(all::add);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
        }
        return new ProcessTable(all);
    }

    /** The stat of one process, or empty if it has gone (processes vanish between listing and reading). */
    public static Optional<ProcInfo> readStat(long pid) {
        return readStat(PROC.resolve(Long.toString(pid)));
    }

    private static Optional<ProcInfo> readStat(Path dir) {
        try {
            return Optional.of(ProcInfo.parseStat(Files.readString(dir.resolve("stat"), StandardCharsets.ISO_8859_1)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean hasEnvEntry(long pid, String entry) {
        byte[] env;
        try {
            env = Files.readAllBytes(PROC.resolve(Long.toString(pid)).resolve("environ"));
        } catch (IOException | SecurityException e) {
            return false;
        }
        byte[] needle = entry.getBytes(StandardCharsets.UTF_8);
        for (int start = 0; start < env.length; ) {
            int end = indexOf(env, (byte) 0, start);
            if (end < 0) {
                end = env.length;
            }
            if (java.util.Arrays.equals(env, start, end, needle, 0, needle.length)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private static int indexOf(byte[] a, byte b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String commandLine(long pid) {
        Path dir = PROC.resolve(Long.toString(pid));
        try {
            byte[] raw = Files.readAllBytes(dir.resolve("cmdline"));
            if (raw.length > 0) {
                return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
            }
        } catch (IOException e) {
            // fall back to the short name below
        }
        return readStat(dir).map(p -> "[" + p.comm() + "]").orElse("?");
    }
}
