package dev.runboard.process;

import dev.runboard.session.SessionEvent;
import dev.runboard.session.SessionInsight;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** The events an owner keeps with a session: what the monitor found, and an adoption after a crash. */
final class EngineEvents {
    private EngineEvents() {
    }

    /** A monitor finding as a session event, in the Contract's words. */
    static SessionEvent of(SessionInsight.Event e) {
        String kind = switch (e.kind()) {
            case HANG -> SessionEvent.HANG;
            case GUARD -> SessionEvent.GUARD;
            case RULE_MATCH, NOTIFY, INFO -> SessionEvent.RULE;
            case OUTPUT -> SessionEvent.OUTPUT;
        };
        return new SessionEvent(e.at(), kind, e.message());
    }

    /**
     * What adopting a running session whose owner died means for it: this runboard owns it now,
     * and its stdin reached end-of-file when it was a pipe held by the owner that died (a session
     * started by exec reads exec's own input, which lives on). Read from /proc/PID/fd/0.
     */
    static List<SessionEvent> adoption(Long pid, Instant at) {
        List<SessionEvent> events = new ArrayList<>();
        events.add(new SessionEvent(at, SessionEvent.SUPERVISOR,
                "adopted by runboard " + ProcessHandle.current().pid() + " after the runboard that owned it stopped"));
        if (stdinIsAPipe(pid)) {
            events.add(new SessionEvent(at, SessionEvent.STDIN,
                    "end of input: the runboard that held this session's stdin stopped; the command reads end-of-file"));
        }
        return events;
    }

    private static boolean stdinIsAPipe(Long pid) {
        try {
            return pid != null && Files.readSymbolicLink(Path.of("/proc", pid.toString(), "fd", "0")).toString().startsWith("pipe:");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
