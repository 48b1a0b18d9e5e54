package dev.runboard.ui;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads /proc to prove a process is gone: absent, or a zombie (its own parent has not reaped it yet). */
public final class ProcFs {
    private ProcFs() {
    }

    public static boolean gone(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            char state = stat.substring(stat.lastIndexOf(')') + 2).charAt(0);
            return state == 'Z' || state == 'X';
        } catch (IOException e) {
            return true;
        }
    }

    /** The process and all its descendants, right now. */
    public static List<Long> tree(long pid) {
        List<Long> pids = new ArrayList<>();
        pids.add(pid);
        ProcessHandle.of(pid).ifPresent(h -> h.descendants().forEach(d -> pids.add(d.pid())));
        return pids;
    }
}
