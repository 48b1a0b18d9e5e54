package dev.runboard.process;

/** One line of the process table, from {@code /proc/<pid>/stat}. */
public record ProcInfo(long pid, long ppid, long pgid, long sid, char state, long startTicks, int nice, String comm) {

    /** Zombies ('Z') and dead tasks ('X') have ended; {@code ProcessHandle.isAlive()} would still say true for a zombie. */
    public boolean alive() {
        return state != 'Z' && state != 'X';
    }

    /** Parses a stat line; the command name is in parentheses and may itself contain spaces or ')'. */
    public static ProcInfo parseStat(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        if (open < 0 || close < open) {
            throw new IllegalArgumentException("not a /proc stat line: " + stat);
        }
        long pid = Long.parseLong(stat.substring(0, open).trim());
        String comm = stat.substring(open + 1, close);
        String[] f = stat.substring(close + 2).split(" ");
        // f[0]=state f[1]=ppid f[2]=pgrp f[3]=session ... f[16]=nice (field 19) f[19]=starttime (field 22 of stat)
        return new ProcInfo(pid, Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), f[0].charAt(0),
                Long.parseLong(f[19]), Integer.parseInt(f[16]), comm);
    }
}
