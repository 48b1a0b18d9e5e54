package dev.runboard.session;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A session's processes at one instant, as a tree: the group's members, the leader's descendants,
 * and processes that carry the session's env tag though they left the group ({@code escapedGroup}).
 * Immutable; built off the FX thread and handed to the window as is.
 */
public record ProcessTreeSnapshot(long leaderPid, List<Node> nodes) {
    /**
     * The file name of the Perl wrapper runboard starts each command under, so that the exit status
     * outlives runboard: the leader of a wrapped session's tree, here or on a remote host.
     */
    public static final String WRAPPER_SCRIPT = "runboard-wrap.pl";

    /** One process: who it is, where it hangs in the tree, and what it costs. */
    public record Node(long pid, long ppid, String command, char state, double cpuPercent, long rssBytes,
                       boolean escapedGroup) {

        /** True for runboard's exit-status wrapper ({@code perl …/runboard-wrap.pl STATUS-FILE …}), not the user's command. */
        public boolean isWrapper() {
            int programEnd = command.indexOf(' ');
            if (programEnd < 0 || !command.startsWith("perl", command.lastIndexOf('/', programEnd) + 1)) {
                return false;
            }
            int scriptEnd = command.indexOf(' ', programEnd + 1);
            String script = command.substring(programEnd + 1, scriptEnd < 0 ? command.length() : scriptEnd);
            return script.equals(WRAPPER_SCRIPT) || script.endsWith("/" + WRAPPER_SCRIPT);
        }

        /** {@code T}: stopped by a signal (STOP) or a tracer. */
        public boolean stopped() {
            return state == 'T' || state == 't';
        }

        public String stateWord() {
            return switch (state) {
                case 'R' -> "running";
                case 'S' -> "sleeping";
                case 'D' -> "disk wait";
                case 'T', 't' -> "stopped";
                case 'Z' -> "zombie";
                case 'I' -> "idle";
                default -> String.valueOf(state);
            };
        }
    }

    public static final ProcessTreeSnapshot EMPTY = new ProcessTreeSnapshot(0, List.of());

    public ProcessTreeSnapshot {
        nodes = List.copyOf(nodes);
    }

    /** Processes whose parent is not in this tree: the leader, and escaped processes re-parented elsewhere. */
    public List<Node> roots() {
        Set<Long> pids = pids();
        return nodes.stream().filter(n -> !pids.contains(n.ppid()) || n.pid() == n.ppid())
                .sorted(Comparator.comparingLong((Node n) -> n.pid() == leaderPid ? 0 : 1).thenComparingLong(Node::pid))
                .toList();
    }

    public List<Node> childrenOf(long pid) {
        List<Node> out = new ArrayList<>();
        for (Node n : nodes) {
            if (n.ppid() == pid && n.pid() != pid) {
                out.add(n);
            }
        }
        out.sort(Comparator.comparingLong(Node::pid));
        return out;
    }

    /** The process and everything below it in this tree, parents before children. */
    public List<Long> subtree(long pid) {
        List<Long> out = new ArrayList<>();
        if (nodes.stream().noneMatch(n -> n.pid() == pid)) {
            return out;
        }
        out.add(pid);
        for (int i = 0; i < out.size(); i++) {
            for (Node c : childrenOf(out.get(i))) {
                if (!out.contains(c.pid())) {
                    out.add(c.pid());
                }
            }
        }
        return out;
    }

    public Set<Long> pids() {
        Set<Long> out = new HashSet<>();
        for (Node n : nodes) {
            out.add(n.pid());
        }
        return out;
    }

    /**
     * True when every live process of the tree is stopped (after SIGSTOP): the session is paused. A
     * loop, as each monitor pass asks: in an exec's JVM a stream's lambdas cost more than the pass's reads.
     */
    public boolean allStopped() {
        boolean any = false;
        for (Node n : nodes) {
            if (n.pid() == leaderPid) {
                // The wrapper runs on while the command's group is stopped: it holds the tree and the deadline.
                // (By pid, not by its command line: a command stopped between its fork and its exec still shows the wrapper's.)
                continue;
            }
            if (!n.stopped()) {
                return false;
            }
            any = true;
        }
        return any;
    }
}
