package dev.runboard.process;

import dev.runboard.session.Signal;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Process groups via {@code setsid}, signals via {@code kill(2)} and pidfds ({@link LinuxSignals}),
 * the process table from {@code /proc} ({@link ProcFiles}). Only processes of runboard's own user
 * are ever signalled, even by a runboard running as root (see {@link #isOurs}).
 */
public final class LinuxProcesses implements OsProcesses {
    /** Probed on first use: a launch under the wrapper needs no prefix, and the probe is a process start (docs/BENCHMARKS.md §10, round 5). */
    private volatile List<String> launchPrefix;
    private final Credentials self;
    private final LinuxSignals signals = new LinuxSignals();

    public LinuxProcesses() {
        this.self = Credentials.ofThisProcess();
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
        List<String> prefix = launchPrefix;
        if (prefix == null) {
            prefix = probeLaunchPrefix(); // two threads may both probe: they find the same answer
            launchPrefix = prefix;
        }
        return prefix;
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
            return LinuxSignals.kill(-pgid, signal);
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
            return LinuxSignals.kill(-pgid, signal);
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
        return LinuxSignals.kill(pid, signal) == Delivery.SENT;
    }

    /**
     * Through a pidfd when the kernel has them: the pidfd is opened first and the start time
     * checked after, so the signal reaches exactly the process that was checked, even if it ends and
     * its pid is reused at that very moment. Without pidfds, a check and kill(2) microseconds apart.
     */
    @Override
    public Delivery signal(long pid, long startTicks, Signal signal) {
        refuseSpecial(pid);
        int fd = signals.pidfdOpen(pid);
        if (fd == LinuxSignals.GONE) {
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
            return fd >= 0 ? LinuxSignals.pidfdSendSignal(fd, signal) : LinuxSignals.kill(pid, signal);
        } finally {
            if (fd >= 0) {
                LinuxSignals.closeQuietly(fd);
            }
        }
    }

    private static void refuseSpecial(long pid) {
        if (pid <= 1 || pid == ProcessHandle.current().pid()) {
            throw new IllegalArgumentException("refusing to signal pid " + pid);
        }
    }

    /** Whether per-process signals go through pidfds (false before Linux 5.3, or on alpha and mips). */
    boolean usesPidfds() {
        return signals.usesPidfds();
    }

    /** A pidfd for the process, negative if it has gone or pidfds are unavailable. */
    int pidfdOpen(long pid) {
        return signals.pidfdOpen(pid);
    }

    @Override
    public boolean isOurs(long pid) {
        return self.owns(ProcFiles.uidsOf(pid)); // gone, or unreadable: not something to signal
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
        return ProcFiles.table();
    }

    /** The stat of one process, or empty if it has gone (processes vanish between listing and reading). */
    public static Optional<ProcInfo> readStat(long pid) {
        return ProcFiles.readStat(pid);
    }

    /**
     * Milliseconds since the kernel started a process: its start ticks against /proc/uptime, both counted from
     * the boot (10 ms steps). Empty if it has gone or /proc cannot be read. Not ProcessHandle's start instant,
     * which adds the ticks to /proc/stat's btime, given in whole seconds: early by the boot time's fraction.
     */
    public static OptionalLong millisSinceStart(long pid) {
        Optional<ProcInfo> stat = readStat(pid);
        double uptime = ProcFiles.uptimeSeconds();
        if (stat.isEmpty() || uptime <= 0) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(Math.round(uptime * 1000) - stat.get().startTicks() * 1000 / ResourceSampler.Sysconf.CLOCK_TICKS);
    }

    @Override
    public boolean hasEnvEntry(long pid, String entry) {
        return ProcFiles.hasEnvEntry(pid, entry);
    }

    @Override
    public String commandLine(long pid) {
        return ProcFiles.commandLine(pid);
    }
}
