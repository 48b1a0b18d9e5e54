package dev.runboard.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Process groups via {@code setsid}, signals via {@code kill(2)} and pidfds, the process table from
 * {@code /proc}. Only processes of runboard's own user are ever signalled, even by a runboard
 * running as root (see {@link #isOurs}).
 */
public final class LinuxProcesses implements OsProcesses {
    private static final Path PROC = Path.of("/proc");
    private static final int ESRCH = 3;

    private static final int EPERM = 1;
    private static final int ENOSYS = 38;
    /** pidfd_send_signal(2) and pidfd_open(2): the same numbers on every architecture but alpha and mips (Linux 5.1, 5.3). */
    private static final long SYS_PIDFD_SEND_SIGNAL = 424;
    private static final long SYS_PIDFD_OPEN = 434;
    private static final Set<String> UNIFIED_SYSCALL_ARCHS = Set.of("amd64", "x86_64", "x86", "i386", "i686",
            "aarch64", "arm", "riscv64", "ppc64", "ppc64le", "s390x", "loongarch64");
    /** Bit of CAP_KILL in the capability masks of /proc/PID/status. */
    private static final int CAP_KILL = 5;

    /** kill(2) straight from libc: no /bin/kill spawned per signal, and group signals (negative pid) work. */
    interface LibC extends Library {
        int kill(int pid, int sig) throws LastErrorException;

        long syscall(long number, Object... args) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    private static final class Holder {
        static final LibC LIBC = Native.load("c", LibC.class);
    }

    /**
     * Who runboard is, read once from /proc/self/status: its real and effective uid, and whether
     * the kernel would let it signal other users' processes (root, or CAP_KILL). Only then does
     * signalling need runboard's own check of each target's uid; otherwise kill(2) applies the same
     * rule itself (except for CONT within one session, which is always checked here).
     */
    record Credentials(long realUid, long effectiveUid, boolean privileged) {
        boolean owns(long[] uids) {
            // The target's real or saved uid against ours: kill(2)'s rule for an unprivileged sender.
            return uids != null && (uids[0] == realUid || uids[0] == effectiveUid || uids[2] == realUid
                    || uids[2] == effectiveUid);
        }
    }

    private final List<String> launchPrefix;
    private final Credentials self;
    /** Cleared when the kernel has no pidfds (before 5.3) or the architecture numbers its syscalls apart. */
    private volatile boolean pidfds;

    public LinuxProcesses() {
        this.launchPrefix = probeLaunchPrefix();
        this.self = readCredentials();
        this.pidfds = UNIFIED_SYSCALL_ARCHS.contains(System.getProperty("os.arch", ""));
    }

    private static Credentials readCredentials() {
        String status;
        try {
            status = Files.readString(PROC.resolve("self").resolve("status"), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/status: " + e.getMessage(), e);
        }
        long[] uids = uids(status);
        if (uids == null) {
            throw new IllegalStateException("no Uid line in /proc/self/status");
        }
        String capEff = field(status, "CapEff:");
        boolean capKill = capEff != null && (Long.parseUnsignedLong(capEff, 16) & (1L << CAP_KILL)) != 0;
        return new Credentials(uids[0], uids[1], uids[1] == 0 || capKill);
    }

    /** Runboard's own uids, and whether it could signal other users' processes. */
    Credentials credentials() {
        return self;
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
        return signalOwnedMembers(pgid, signal) == Delivery.SENT;
    }

    @Override
    public Delivery signalGroup(long leaderPid, long leaderStartTicks, Signal signal) {
        if (leaderPid <= 1) {
            throw new IllegalArgumentException("refusing to signal process group " + leaderPid);
        }
        Optional<ProcInfo> leader = readStat(leaderPid);
        if (leader.isEmpty()) {
            return Delivery.GONE;
        }
        if (leader.get().startTicks() != leaderStartTicks) {
            return Delivery.REUSED;
        }
        // The leader is the session's (alive or a zombie), so its pid cannot be handed out again before
        // the signal: only the instant between this check and kill(2) is unguarded, as it is for any
        // group signal; a pidfd can name a process, not a group.
        return signalOwnedMembers(leaderPid, signal);
    }

    /**
     * The group at once when kill(2) would reach only runboard's own processes (always, unless
     * runboard is privileged or sends CONT); otherwise the members are listed and the group is
     * signalled at once only if all are runboard's, else each of runboard's one by one.
     */
    private Delivery signalOwnedMembers(long pgid, Signal signal) {
        if (!self.privileged() && signal != Signal.CONT) {
            return kill(-pgid, signal);
        }
        List<ProcInfo> members = new ArrayList<>();
        for (ProcInfo p : snapshot().all()) {
            if (p.pgid() == pgid && p.alive()) {
                members.add(p);
            }
        }
        if (members.isEmpty()) {
            return Delivery.GONE;
        }
        List<ProcInfo> ours = members.stream().filter(p -> isOurs(p.pid())).toList();
        if (ours.size() == members.size()) {
            return kill(-pgid, signal);
        }
        boolean sent = false;
        for (ProcInfo p : ours) {
            sent |= p.pid() > 1 && p.pid() != ProcessHandle.current().pid()
                    && signal(p.pid(), p.startTicks(), signal) == Delivery.SENT;
        }
        return sent ? Delivery.SENT : Delivery.NOT_OURS;
    }

    @Override
    public boolean signal(long pid, Signal signal) {
        refuseSpecial(pid);
        if ((self.privileged() || signal == Signal.CONT) && !isOurs(pid)) {
            return false;
        }
        return kill(pid, signal) == Delivery.SENT;
    }

    /**
     * Through a pidfd when the kernel has them: the pidfd is opened first and the start time
     * checked after, so the signal reaches exactly the process that was checked, even if it ends and
     * its pid is reused at that very moment. Without pidfds, a check and kill(2) microseconds apart.
     */
    @Override
    public Delivery signal(long pid, long startTicks, Signal signal) {
        refuseSpecial(pid);
        int fd = pidfds ? pidfdOpen(pid) : -1;
        if (fd == -ESRCH) {
            return Delivery.GONE;
        }
        try {
            Optional<ProcInfo> p = readStat(pid);
            if (p.isEmpty()) {
                return Delivery.GONE;
            }
            if (p.get().startTicks() != startTicks) {
                return Delivery.REUSED;
            }
            if (!isOurs(pid)) {
                return Delivery.NOT_OURS;
            }
            return fd >= 0 ? pidfdSendSignal(fd, signal) : kill(pid, signal);
        } finally {
            if (fd >= 0) {
                closeQuietly(fd);
            }
        }
    }

    private static void refuseSpecial(long pid) {
        if (pid <= 1 || pid == ProcessHandle.current().pid()) {
            throw new IllegalArgumentException("refusing to signal pid " + pid);
        }
    }

    private static Delivery kill(long target, Signal signal) {
        try {
            Holder.LIBC.kill(Math.toIntExact(target), signal.number());
            return Delivery.SENT;
        } catch (LastErrorException e) {
            return failed(e, "kill(" + target + ", " + signal + ")");
        }
    }

    private static Delivery failed(LastErrorException e, String call) {
        if (e.getErrorCode() == ESRCH) {
            return Delivery.GONE;
        }
        if (e.getErrorCode() == EPERM) {
            return Delivery.NOT_OURS; // the kernel refused: another user's process
        }
        throw new IllegalStateException(call + " failed: errno " + e.getErrorCode(), e);
    }

    /** Whether per-process signals go through pidfds (false before Linux 5.3, or on alpha and mips). */
    boolean usesPidfds() {
        return pidfds;
    }

    /** A pidfd for the process, {@code -ESRCH} if it has gone, or -1 when pidfds are unavailable. */
    int pidfdOpen(long pid) {
        try {
            return Math.toIntExact(Holder.LIBC.syscall(SYS_PIDFD_OPEN, pid, 0L));
        } catch (LastErrorException e) {
            if (e.getErrorCode() == ESRCH) {
                return -ESRCH;
            }
            if (e.getErrorCode() == ENOSYS) {
                pidfds = false; // kernel before 5.3: check and kill(2) from now on
            }
            return -1;
        }
    }

    private static Delivery pidfdSendSignal(int fd, Signal signal) {
        try {
            Holder.LIBC.syscall(SYS_PIDFD_SEND_SIGNAL, (long) fd, (long) signal.number(), 0L, 0L);
            return Delivery.SENT;
        } catch (LastErrorException e) {
            return failed(e, "pidfd_send_signal(" + signal + ")");
        }
    }

    static void closeQuietly(int fd) {
        try {
            Holder.LIBC.close(fd);
        } catch (LastErrorException e) {
            // nothing to do: the descriptor is gone either way
        }
    }

    @Override
    public boolean isOurs(long pid) {
        try {
            return self.owns(uids(Files.readString(PROC.resolve(Long.toString(pid)).resolve("status"),
                    StandardCharsets.ISO_8859_1)));
        } catch (IOException | RuntimeException e) {
            return false; // gone, or unreadable: not something to signal
        }
    }

    /** Real, effective, saved and filesystem uid from a /proc status file, or null when it has no Uid line. */
    static long[] uids(String status) {
        String line = field(status, "Uid:");
        if (line == null) {
            return null;
        }
        String[] f = line.trim().split("\\s+");
        return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])};
    }

    private static String field(String status, String name) {
        int at = status.startsWith(name) ? 0 : status.indexOf("\n" + name);
        if (at < 0) {
            return null;
        }
        int start = status.indexOf(name, at) + name.length();
        int end = status.indexOf('\n', start);
        return status.substring(start, end < 0 ? status.length() : end).trim();
    }

    @Override
    public boolean isAlive(long pid) {
        return readStat(pid).map(ProcInfo::alive).orElse(false);
    }

    @Override
    public boolean isAlive(long pid, long startTicks) {
        return readStat(pid).map(p -> p.alive() && p.startTicks() == startTicks).orElse(false);
    }

    @Override
    public boolean isSameProcess(long pid, long startTicks) {
        return readStat(pid).map(p -> p.startTicks() == startTicks).orElse(false);
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
