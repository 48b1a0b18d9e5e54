package dev.runboard.process;

import com.sun.jna.LastErrorException;
import com.sun.jna.Library;
import com.sun.jna.Native;
import dev.runboard.process.OsProcesses.Delivery;
import dev.runboard.session.Signal;
import java.util.Set;

/**
 * The kernel's signal calls, straight from libc: {@code kill(2)} (no /bin/kill spawned per signal,
 * and group signals with a negative pid work) and, where the kernel has them, pidfds, which name
 * one process and not whatever later takes its pid. Sends what it is asked to; whom runboard may
 * signal is {@link LinuxProcesses}'s decision.
 */
final class LinuxSignals {
    private static final int EPERM = 1;
    private static final int ESRCH = 3;
    private static final int ENOSYS = 38;
    /** What {@link #pidfdOpen} returns for a process that has gone. */
    static final int GONE = -ESRCH;
    /** pidfd_send_signal(2) and pidfd_open(2): the same numbers on every architecture but alpha and mips (Linux 5.1, 5.3). */
    private static final long SYS_PIDFD_SEND_SIGNAL = 424;
    private static final long SYS_PIDFD_OPEN = 434;
    private static final Set<String> UNIFIED_SYSCALL_ARCHS = Set.of("amd64", "x86_64", "x86", "i386", "i686",
            "aarch64", "arm", "riscv64", "ppc64", "ppc64le", "s390x", "loongarch64");

    interface LibC extends Library {
        int kill(int pid, int sig) throws LastErrorException;

        long syscall(long number, Object... args) throws LastErrorException;

        int close(int fd) throws LastErrorException;
    }

    /** libc is loaded on the first signal, not when the class is: listing processes needs none. */
    private static final class Holder {
        static final LibC LIBC = Native.load("c", LibC.class);
    }

    /** Cleared when the kernel has no pidfds (before 5.3) or the architecture numbers its syscalls apart. */
    private volatile boolean pidfds = UNIFIED_SYSCALL_ARCHS.contains(System.getProperty("os.arch", ""));

    /** kill(2): {@code target} is a pid, or a process group as a negative number. */
    static Delivery kill(long target, Signal signal) {
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

    /** A pidfd for the process, {@link #GONE} if it has gone, or -1 when pidfds are unavailable. */
    int pidfdOpen(long pid) {
        if (!pidfds) {
            return -1;
        }
        try {
            return Math.toIntExact(Holder.LIBC.syscall(SYS_PIDFD_OPEN, pid, 0L));
        } catch (LastErrorException e) {
            if (e.getErrorCode() == ESRCH) {
                return GONE;
            }
            if (e.getErrorCode() == ENOSYS) {
                pidfds = false; // kernel before 5.3: check and kill(2) from now on
            }
            return -1;
        }
    }

    static Delivery pidfdSendSignal(int fd, Signal signal) {
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
}
