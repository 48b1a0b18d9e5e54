package dev.runboard.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.ProcessTreeSnapshot;
import dev.runboard.session.Session;
import dev.runboard.session.SessionInsight;

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
        ObjectNode usage = snapshot.putObject("usage");
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
        return snapshot;
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }
}
