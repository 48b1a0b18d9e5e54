package dev.runboard.stack;

import dev.runboard.session.SessionSpec;
import dev.runboard.session.StackLink;
import dev.runboard.workspace.ReadyCheck;
import dev.runboard.workspace.RestartBackoff;
import dev.runboard.workspace.Workspace;
import dev.runboard.workspace.WorkspaceCommand;
import java.time.Duration;
import java.util.Map;

/**
 * One command as the orchestration runs it: what to launch and the rules around it (dependencies,
 * readiness probe, restart policy with backoff, delay, group). From a workspace command, or ad hoc
 * ({@code start --queue}, {@code start --after}), where {@code dependsOn} names session ids.
 */
record StackCommand(String name, String file, SessionSpec spec, Map<String, String> dependsOn, ReadyCheck ready,
                    String restart, RestartBackoff backoff, Duration delay, String group, java.util.List<Integer> successExitCodes,
                    dev.runboard.session.ShutdownStep shutdown, dev.runboard.workspace.LivenessCheck liveness,
                    java.nio.file.Path logFile) {

    StackCommand {
        dependsOn = dependsOn == null ? Map.of() : Map.copyOf(dependsOn);
        restart = restart == null ? "never" : restart;
        backoff = backoff == null ? RestartBackoff.DEFAULT : backoff;
    }

    static StackCommand of(Workspace ws, String name, String file) {
        WorkspaceCommand c = ws.commands().get(name);
        return new StackCommand(name, file, ws.spec(name), c.dependencies(), c.ready(), // the environment merged there
                c.restartPolicy(), c.backoff(), c.delay(), c.group(), c.successExitCodes(),
                c.shutdown() == null ? null : c.shutdown().toStep(), c.liveness(),
                c.logFile() == null ? null : ws.root().resolve(c.logFile()).normalize());
    }

    /**
     * A command as a session's record names it (its stack link), for a run this orchestrator did not
     * start (a supervisor before it did): enough to follow it and to stop it, never to restart it.
     */
    static StackCommand recorded(dev.runboard.session.Session s) {
        dev.runboard.session.StackLink l = s.stack();
        return new StackCommand(l.name(), l.file(), s.spec(), l.dependsOn(), null, "never", null, null, l.group(),
                l.successExitCodes(), l.shutdown(), null, null);
    }

    static StackCommand adHoc(SessionSpec spec, String queue, Map<String, String> after) {
        return new StackCommand(null, null, spec, after, null, "never", null, null, queue, null, null, null, null);
    }

    /** The first run's link; restarts derive theirs from it. */
    StackLink link() {
        return new StackLink(name, file, group, dependsOn, 0, null, ready != null, successExitCodes, shutdown);
    }

    /** The wait before restart number {@code n} (1-based): {@code initial}, doubled each time, at most {@code max}. */
    Duration backoffBefore(int n) {
        Duration d = backoff.initialOrDefault();
        for (int i = 1; i < n && d.compareTo(backoff.maxOrDefault()) < 0; i++) {
            d = d.multipliedBy(2);
        }
        return d.compareTo(backoff.maxOrDefault()) > 0 ? backoff.maxOrDefault() : d;
    }
}
