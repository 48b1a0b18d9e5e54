package dev.runboard.cli;

import dev.runboard.engine.ShownSnapshot;
import dev.runboard.engine.SupervisorClient;
import dev.runboard.session.SessionStatus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;

/** The sessions a command acts on: ids (unique prefixes) given one by one, or every session with a status. */
final class SessionTargets {
    private SessionTargets() {
    }

    /**
     * The whole ids of {@code ids}, or of every session whose status is {@code status}; a usage
     * error when both or neither are given, or when an id names no session or several.
     */
    static List<String> resolve(SupervisorClient client, List<String> ids, String status) throws UsageException, IOException {
        boolean byId = ids != null && !ids.isEmpty();
        if (byId == (status != null)) {
            throw new UsageException("give session ids or --status STATUS (one of the two)");
        }
        if (byId) {
            LinkedHashSet<String> whole = new LinkedHashSet<>();
            for (String id : ids) {
                whole.add(StoreAccess.resolveId(client, id));
            }
            return List.copyOf(whole);
        }
        SessionStatus wanted = parse(status);
        List<String> matching = new ArrayList<>();
        for (ShownSnapshot s : client.list()) {
            if (s.status() == wanted) {
                matching.add(s.sessionId());
            }
        }
        return matching;
    }

    static SessionStatus parse(String word) throws UsageException {
        try {
            return SessionStatus.fromWord(word.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }
}
