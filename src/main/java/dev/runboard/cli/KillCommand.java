package dev.runboard.cli;

import dev.runboard.engine.SupervisorClient;
import dev.runboard.session.Durations;
import dev.runboard.session.KillReport;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.store.Json;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code runboard kill ID... | --status S}: the tree kill, from the terminal; prints the kill reports. */
@Command(name = "kill", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Kill running sessions' whole process trees and print the kill reports.",
            "Sends SIGNAL once to each process group, SIGKILL after the grace, then sweeps for processes that"
            + " left the group. For one ID, prints its kill report as JSON; for several (or --status), a JSON list"
            + " of {session_id, report}. Exits 0 when nothing survived, 1 when something did."},
        footer = {"", "Examples:", "  runboard kill 20260114-093012-3f9a1c", "  runboard kill --grace 10s 2026011 2026012",
            "  runboard kill --status paused"})
public final class KillCommand implements Callable<Integer> {
    /** Kills sent to the supervisor at once (each is one connection and one handler thread there). */
    private static final int PARALLEL_KILLS = 16;

    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Parameters(arity = "0..*", paramLabel = "ID", description = "Session ids (a unique prefix is enough).")
    List<String> ids;

    @Option(names = "--status", paramLabel = "S", description = "Every session with this status instead: running, paused,"
            + " pending or queued (a waiting one ends killed without running).")
    String status;

    @Option(names = "--signal", paramLabel = "S", defaultValue = "TERM",
            description = "First signal: TERM, INT, HUP, QUIT, USR1, USR2 or KILL (default: ${DEFAULT-VALUE}).")
    String signal;

    @Option(names = "--grace", paramLabel = "DURATION",
            description = "Time before SIGKILL: 500ms, 5s, 1m; a bare number is seconds (default: the session's own grace).")
    String graceText;

    @Override
    public Integer call() throws Exception {
        Signal first;
        try {
            first = Signal.parse(signal);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
        Duration grace = null;
        if (graceText != null) {
            try {
                grace = Durations.parse(graceText);
            } catch (IllegalArgumentException e) {
                throw new UsageException("--grace: " + e.getMessage());
            }
            try {
                SessionSpec.checkGrace(grace, "--grace", graceText);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
        }
        if (status != null && !SessionTargets.parse(status).isLive() && !SessionTargets.parse(status).isWaiting()) {
            throw new UsageException("only running, paused, pending or queued sessions can be killed, not " + status + " ones");
        }
        SupervisorClient client = store.client();
        List<String> targets = SessionTargets.resolve(client, ids, status);
        boolean one = status == null && targets.size() == 1;
        // All at once, as the window's Kill on many rows does: each kill waits its grace for what
        // ignores TERM, and thirty one after the other would take thirty graces.
        List<Future<KillReport>> kills = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Math.min(targets.size(), PARALLEL_KILLS)), r -> {
            Thread t = new Thread(r, "runboard-kill");
            t.setDaemon(true);
            return t;
        });
        try {
            for (String session : targets) {
                Duration g = grace;
                kills.add(pool.submit(() -> client.kill(session, first, g)));
            }
        } finally {
            pool.shutdown();
        }
        List<Map<String, Object>> reports = new ArrayList<>();
        boolean clean = true;
        for (int i = 0; i < targets.size(); i++) {
            String session = targets.get(i);
            KillReport report;
            try {
                report = kills.get(i).get();
            } catch (ExecutionException failed) {
                if (!(failed.getCause() instanceof SupervisorClient.RequestException e)) {
                    throw failed.getCause() instanceof Exception cause ? cause : failed;
                }
                if (e.usage() && one) {
                    throw new UsageException(e.getMessage());
                }
                if (!e.usage()) {
                    throw e;
                }
                // One of several had ended meanwhile: said, and the others are still killed.
                spec.commandLine().getErr().println("runboard kill: " + e.getMessage());
                clean = false;
                continue;
            }
            clean &= report.clean();
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("session_id", session);
            entry.put("report", report);
            reports.add(entry);
        }
        spec.commandLine().getOut().println(Json.write(one ? reports.get(0).get("report") : reports));
        spec.commandLine().getOut().flush();
        return clean ? 0 : 1;
    }
}
