package dev.runboard.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.process.ResourceSampler;
import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;
import java.util.ArrayList;
import java.util.List;

/**
 * A running session's resources as its snapshot's JSON carries them ({@code show}, {@code list}):
 * {@code usage: {sampled_at, cpu_percent, rss_bytes, cpu_seconds, processes: [{pid, ppid, command,
 * state, cpu_percent, rss_bytes, escaped_group}]}}, from the supervisor's last monitor pass; local
 * sessions from this machine's /proc, remote ones from their host's. Absent once the session has
 * ended (its totals are {@code resources}) and before the first pass.
 */
final class LiveUsage {
    private LiveUsage() {
    }

    static ObjectNode add(ObjectNode snapshot, Session session, SessionInsight insight) {
        if (!session.status().isLive() || insight == null || insight.sampledAt() == null) {
            return snapshot;
        }
        write(snapshot.putObject("usage"), insight);
        return snapshot;
    }

    /**
     * The usage a window's monitor shows for a remote session: read back from what {@link
     * #write} wrote (the client has no ssh of its own; the supervisor's poll sampled the host).
     */
    static ResourceSampler.Usage read(String sessionId, long leaderPid, JsonNode usage) {
        List<ProcessTreeSnapshot.Node> nodes = new ArrayList<>();
        for (JsonNode p : usage.path("processes")) {
            nodes.add(new ProcessTreeSnapshot.Node(p.path("pid").asLong(), p.path("ppid").asLong(),
                    p.path("command").asText(), stateOf(p.path("state").asText("?")), p.path("cpu_percent").asDouble(),
                    p.path("rss_bytes").asLong(), p.path("escaped_group").asBoolean()));
        }
        return new ResourceSampler.Usage(sessionId, usage.path("cpu_percent").asDouble(), usage.path("rss_bytes").asLong(),
                usage.path("cpu_seconds").asDouble(), new ProcessTreeSnapshot(leaderPid, nodes));
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

    static ObjectNode write(ObjectNode usage, SessionInsight insight) {
        usage.put("sampled_at", insight.sampledAt().toString());
        usage.put("cpu_percent", round(insight.cpuPercent()));
        usage.put("rss_bytes", insight.rssBytes());
        usage.put("cpu_seconds", round(insight.cpuSeconds()));
        ArrayNode processes = usage.putArray("processes");
        for (ProcessTreeSnapshot.Node n : insight.tree().nodes()) {
            ObjectNode p = processes.addObject();
            p.put("pid", n.pid());
            p.put("ppid", n.ppid());
            p.put("command", n.command());
            p.put("state", n.stateWord());
            p.put("cpu_percent", round(n.cpuPercent()));
            p.put("rss_bytes", n.rssBytes());
            p.put("escaped_group", n.escapedGroup());
        }
        return usage;
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
