package dev.runboard.process;

/**
 * The fields of {@code /proc/<pid>/stat} the resource sampler needs: identity, tree, state, CPU
 * ticks (own and reaped children's) and resident pages.
 */
record ProcSample(long pid, long ppid, long pgid, char state, long startTicks, long ownTicks, long childTicks,
                  long rssPages, String comm) {

    boolean alive() {
        return state != 'Z' && state != 'X';
    }

    /** Reads and parses {@code /proc/PID/stat} of the process folder {@code dir}. */
    static ProcSample read(java.nio.file.Path dir) throws java.io.IOException {
        return parse(java.nio.file.Files.readString(dir.resolve("stat"), java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    /** Parses a stat line without regexes or splitting the whole line (this runs for every process every pass). */
    static ProcSample parse(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc stat line: " + stat);
        }
        long pid = Long.parseLong(stat.substring(0, open).trim());
        String comm = stat.substring(open + 1, close);
        // Fields after ") ": 0 state, 1 ppid, 2 pgrp, 11 utime, 12 stime, 13 cutime, 14 cstime, 19 starttime, 21 rss.
        long[] f = new long[22];
        int i = close + 2;
        char state = stat.charAt(i);
        i += 2;
        for (int field = 1; field < f.length && i < stat.length(); field++) {
            int end = stat.indexOf(' ', i);
            if (end < 0) {
                end = stat.length();
            }
            if (field <= 2 || (field >= 11 && field <= 14) || field == 19 || field == 21) {
                f[field] = Long.parseLong(stat, i, end, 10);
            }
            i = end + 1;
        }
        return new ProcSample(pid, f[1], f[2], state, f[19], f[11] + f[12], f[13] + f[14], Math.max(0, f[21]), comm);
    }
}
