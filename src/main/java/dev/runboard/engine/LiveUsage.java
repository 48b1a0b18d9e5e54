package dev.runboard.engine;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import dev.runboard.process.ResourceSampler;
import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;
import java.time.Instant;
import java.util.List;

/**
 * A running session's resources as replies carry them (a snapshot's {@code usage} in {@code show} and
 * {@code list}, and the {@code usage} request's), from the supervisor's last monitor pass: local sessions
 * from this machine's /proc, remote ones from their host's. Absent once the session has ended (its totals
 * are {@code resources}) and before the first pass. Percentages and seconds to a tenth.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LiveUsage(Instant sampledAt, double cpuPercent, long rssBytes, double cpuSeconds,
                        List<LiveUsage.ProcessUsage> processes) {
    public LiveUsage {
        processes = processes == null ? List.of() : List.copyOf(processes);
    }

    /** One process of the tree; {@code state} a word ({@link ProcessTreeSnapshot.Node#stateWord()}). */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record ProcessUsage(long pid, long ppid, String command, String state, double cpuPercent, long rssBytes,
                          boolean escapedGroup) {
    }

    /** The usage of the last pass; null before the first. */
    static LiveUsage of(SessionInsight insight) {
        if (insight == null || insight.sampledAt() == null) {
            return null;
        }
        List<ProcessUsage> processes = insight.tree().nodes().stream().map(n -> new ProcessUsage(n.pid(), n.ppid(), n.command(),
                n.stateWord(), round(n.cpuPercent()), n.rssBytes(), n.escapedGroup())).toList();
        return new LiveUsage(insight.sampledAt(), round(insight.cpuPercent()), insight.rssBytes(),
                round(insight.cpuSeconds()), processes);
    }

    /** The usage a snapshot of {@code session} shows: null once it has ended, and before the first pass. */
    static LiveUsage ofLive(Session session, SessionInsight insight) {
        return session.status().isLive() ? of(insight) : null;
    }

    /**
     * The usage as a window's monitor shows it for a remote session (the client has no ssh of its own; the
     * supervisor's poll sampled the host).
     */
    ResourceSampler.Usage toSampled(String sessionId, long leaderPid) {
        List<ProcessTreeSnapshot.Node> nodes = processes.stream().map(p -> new ProcessTreeSnapshot.Node(p.pid(), p.ppid(),
                p.command(), stateOf(p.state() == null ? "?" : p.state()), p.cpuPercent(), p.rssBytes(), p.escapedGroup()))
                .toList();
        return new ResourceSampler.Usage(sessionId, cpuPercent, rssBytes, cpuSeconds, new ProcessTreeSnapshot(leaderPid, nodes));
    }

    /** The /proc state letter of a {@link ProcessTreeSnapshot.Node#stateWord()}. */
    private static char stateOf(String word) {
        return switch (word) {
            case "running" -> 'R';
            case "sleeping" -> 'S';
            case "disk wait" -> 'D';
            case "stopped" -> 'T';
            case "zombie" -> 'Z';
            case "idle" -> 'I';
            default -> word.isEmpty() ? '?' : word.charAt(0);
        };
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
