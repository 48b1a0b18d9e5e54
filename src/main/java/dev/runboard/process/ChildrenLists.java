package dev.runboard.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Some leaders and every process below them, read through the kernel's children lists
 * ({@code /proc/PID/task/TID/children}, one per thread: a child forked by any thread is in its
 * list) instead of every process's stat: a session's handful of files, not a desktop's hundreds.
 * It cannot see a process that left the tree (a double-forked daemon, whose parent is init) or
 * a group member reparented out of it: the resource sampler's full pass finds those.
 */
final class ChildrenLists {
    private static final Path PROC = Path.of("/proc");

    private ChildrenLists() {
    }

    /**
     * The stat of each leader and its descendants, and in {@code readNanos} when each was read; null
     * when this kernel keeps no children lists (built without CONFIG_PROC_CHILDREN).
     */
    static List<ProcSample> readTrees(Collection<Long> leaders, Map<Long, Long> readNanos) {
        List<ProcSample> found = new ArrayList<>();
        Deque<Long> todo = new ArrayDeque<>(leaders);
        Set<Long> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            long pid = todo.poll();
            if (!seen.add(pid)) {
                continue;
            }
            Path dir = PROC.resolve(Long.toString(pid));
            try {
                found.add(ProcSample.read(dir));
                readNanos.put(pid, System.nanoTime());
            } catch (IOException | RuntimeException gone) {
                continue; // ended since its parent's list was read
            }
            if (!childrenOf(dir, todo)) {
                return null;
            }
        }
        return found;
    }

    /** Adds the process's children to {@code into}; false when the kernel has no children lists. */
    private static boolean childrenOf(Path process, Deque<Long> into) {
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(process.resolve("task"))) {
            for (Path task : tasks) {
                String list;
                try {
                    list = Files.readString(task.resolve("children"), StandardCharsets.ISO_8859_1);
                } catch (NoSuchFileException e) {
                    if (Files.isDirectory(task)) {
                        return false; // the thread is there and its list is not: no CONFIG_PROC_CHILDREN
                    }
                    continue; // the thread ended
                }
                int from = 0;
                for (int i = 0; i <= list.length(); i++) {
                    if (i == list.length() || list.charAt(i) == ' ' || list.charAt(i) == '\n') {
                        if (i > from) {
                            into.add(Long.parseLong(list, from, i, 10));
                        }
                        from = i + 1;
                    }
                }
            }
        } catch (IOException | RuntimeException gone) {
            // the process ended: no children to follow
        }
        return true;
    }
}
