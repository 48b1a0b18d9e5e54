package dev.runboard.process;

import java.io.IOException;

/**
 * Who runboard is, read once from /proc/self/status: its real and effective uid, and whether
 * the kernel would let it signal other users' processes (root, or CAP_KILL). Only then does
 * signalling need runboard's own check of each target's uid; otherwise kill(2) applies the same
 * rule itself (except for CONT within one session, which is always checked).
 */
record Credentials(long realUid, long effectiveUid, boolean privileged) {
    /** Bit of CAP_KILL in the capability masks of /proc/PID/status. */
    private static final int CAP_KILL = 5;

    static Credentials ofThisProcess() {
        String status;
        try {
            status = ProcFiles.status("self");
        } catch (IOException e) {
            throw new IllegalStateException("cannot read /proc/self/status: " + e.getMessage(), e);
        }
        long[] uids = ProcFiles.uids(status);
        if (uids == null) {
            throw new IllegalStateException("no Uid line in /proc/self/status");
        }
        String capEff = ProcFiles.field(status, "CapEff:");
        boolean capKill = capEff != null && (Long.parseUnsignedLong(capEff, 16) & (1L << CAP_KILL)) != 0;
        return new Credentials(uids[0], uids[1], uids[1] == 0 || capKill);
    }

    /** Whether a process with these uids (from its status file; null when unknown) is runboard's to signal. */
    boolean owns(long[] uids) {
        // The target's real or saved uid against ours: kill(2)'s rule for an unprivileged sender.
        return uids != null && (uids[0] == realUid || uids[0] == effectiveUid || uids[2] == realUid
                || uids[2] == effectiveUid);
    }
}
