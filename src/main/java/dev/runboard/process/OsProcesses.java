package dev.runboard.process;

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

    /** Sends a signal to every process in a group. Returns false if the group no longer exists. */
    boolean signalGroup(long pgid, Signal signal);

    /** Sends a signal to one process. Returns false if it no longer exists. */
    boolean signal(long pid, Signal signal);

    /** Whether a process exists and has not ended (a zombie has ended). */
    boolean isAlive(long pid);

    /** When the process started, in clock ticks since boot (0 if unknown): with the pid, it names one process for good. */
    long startTicks(long pid);

    /** One pass over the process table. */
    ProcessTable snapshot();

    /** Whether a process's environment contains the exact entry {@code NAME=value}. False when unreadable. */
    boolean hasEnvEntry(long pid, String entry);

    /** The process's command line for people to read, or its name when the command line is unreadable. */
    String commandLine(long pid);

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
