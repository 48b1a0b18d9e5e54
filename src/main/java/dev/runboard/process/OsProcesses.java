package dev.runboard.process;

import dev.runboard.session.Signal;
import java.util.List;
import java.util.Optional;

/**
 * The OS-specific part of running and ending process trees: process groups, signals and the
 * process table. Linux is implemented; elsewhere {@link #limitations()} says what is missing.
 */
public interface OsProcesses {

    /** Words put before the command so it runs as the leader of its own process group with default signal dispositions. */
    List<String> launchPrefix();

    /** Whether tree kill by process group and by env tag works here. */
    boolean supportsTreeKill();

    /** Empty on a fully supported OS; otherwise one sentence for the user. */
    Optional<String> limitations();

    /**
     * Sends a signal to every process in a group that is runboard's to signal ({@link #isOurs}): the
     * group at once when all its members are, else each of those one by one. Returns false if the
     * group no longer exists or none of it is runboard's. It cannot tell whether the group is still
     * the one meant: prefer {@link #signalGroup(long, long, Signal)}.
     */
    boolean signalGroup(long pgid, Signal signal);

    /**
     * As {@link #signalGroup(long, Signal)}, for the group that the process {@code leaderPid},
     * started at {@code leaderStartTicks}, leads, and only while that process is still there with
     * that start time: checked right before the signal, so a pid the kernel gave to another process
     * (which may lead a group of its own) is never signalled. A leader that has ended (even when
     * members of its group remain) cannot be checked either: nothing is sent, and the answer is
     * {@link Delivery#GONE}; signal the members one by one with {@link #signal(long, long, Signal)}.
     */
    default Delivery signalGroup(long leaderPid, long leaderStartTicks, Signal signal) {
        if (!isSameProcess(leaderPid, leaderStartTicks)) {
            return isAlive(leaderPid) || startTicks(leaderPid) != 0 ? Delivery.REUSED : Delivery.GONE;
        }
        return signalGroup(leaderPid, signal) ? Delivery.SENT : Delivery.GONE;
    }

    /**
     * Sends a signal to one process if it is runboard's to signal ({@link #isOurs}). Returns false if
     * it no longer exists or is not runboard's.
     */
    boolean signal(long pid, Signal signal);

    /**
     * Sends a signal to the process {@code pid} only if it is still the one that started at
     * {@code startTicks} (a pid reused since names another process) and it is runboard's to signal.
     */
    default Delivery signal(long pid, long startTicks, Signal signal) {
        if (!isSameProcess(pid, startTicks)) {
            return isAlive(pid) ? Delivery.REUSED : Delivery.GONE;
        }
        if (!isOurs(pid)) {
            return Delivery.NOT_OURS;
        }
        return signal(pid, signal) ? Delivery.SENT : Delivery.GONE;
    }

    /** What became of a signal sent to a process named by its pid and start time. */
    enum Delivery {
        /** The signal was sent. */
        SENT,
        /** The process (or the group's leader) has gone: nothing was sent. */
        GONE,
        /** The pid now names another process (another start time): nothing was sent. */
        REUSED,
        /** The process belongs to another user: runboard leaves it alone, even when it could signal it (root). */
        NOT_OURS
    }

    /**
     * Whether runboard may signal the process: its real or saved uid is runboard's real or effective
     * uid, which is whom kill(2) lets an unprivileged process signal. Running as root (or with
     * CAP_KILL) grants no more: another user's process is never signalled. False when it has gone.
     */
    default boolean isOurs(long pid) {
        return true;
    }

    /** Whether a process exists and has not ended (a zombie has ended). */
    boolean isAlive(long pid);

    /** Whether the process {@code pid} exists, has not ended and is the one that started at {@code startTicks}. */
    default boolean isAlive(long pid, long startTicks) {
        return isAlive(pid) && startTicks(pid) == startTicks;
    }

    /** Whether {@code pid} names the process that started at {@code startTicks} (alive or a zombie). */
    default boolean isSameProcess(long pid, long startTicks) {
        return (isAlive(pid) || startTicks(pid) != 0) && startTicks(pid) == startTicks;
    }

    /** When the process started, in clock ticks since boot (0 if unknown): with the pid, it names one process for good. */
    long startTicks(long pid);

    /** One pass over the process table. */
    ProcessTable snapshot();

    /** Whether a process's environment contains the exact entry {@code NAME=value}. False when unreadable. */
    boolean hasEnvEntry(long pid, String entry);

    /** The process's command line for people to read, or its name when the command line is unreadable. */
    String commandLine(long pid);

    /** The live processes whose environment holds {@code entry} (a session's tag: what ps would find of it), in one pass. */
    default java.util.List<ProcInfo> carrying(String entry) {
        return snapshot().all().stream().filter(p -> p.alive() && hasEnvEntry(p.pid(), entry)).toList();
    }

    /** The implementation for the running OS, made once (the Linux one probes {@code env} at start). */
    static OsProcesses forThisMachine() {
        return Holder.INSTANCE;
    }

    /** Lazily made shared instance. */
    final class Holder {
        static final OsProcesses INSTANCE = detect();

        private Holder() {
        }
    }

    private static OsProcesses detect() {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        if (os.contains("linux") && java.nio.file.Files.isDirectory(java.nio.file.Path.of("/proc/self"))) {
            return new LinuxProcesses();
        }
        return new PortableProcesses(System.getProperty("os.name"));
    }
}
