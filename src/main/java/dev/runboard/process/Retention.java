package dev.runboard.process;

import dev.runboard.session.Session;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which finished sessions to prune: the oldest first, until both the count and the artifact bytes
 * fit. The newest finished session is never pruned: a single artifact bigger than the whole limit
 * would otherwise be deleted the moment its session ended.
 */
final class Retention {
    private Retention() {
    }

    static List<Session> toPrune(List<Session> sessions, EngineConfig.Retention limits) {
        List<Session> finished = new ArrayList<>(sessions.stream().filter(s -> s.status().isTerminal()).toList());
        finished.sort(Comparator.comparing(Session::startedAt));
        long artifactBytes = finished.stream().mapToLong(Retention::artifactBytes).sum();
        List<Session> prune = new ArrayList<>();
        int kept = finished.size();
        for (Session s : finished.subList(0, Math.max(0, finished.size() - 1))) {
            if (kept <= limits.keepFinished() && artifactBytes <= limits.keepArtifactBytes()) {
                break;
            }
            prune.add(s);
            kept--;
            artifactBytes -= artifactBytes(s);
        }
        return prune;
    }

    private static long artifactBytes(Session s) {
        String artifact = s.outcome() == null ? null : s.outcome().artifact();
        if (artifact == null) {
            return 0;
        }
        try {
            return Files.size(Path.of(artifact));
        } catch (IOException e) {
            return 0;
        }
    }
}
