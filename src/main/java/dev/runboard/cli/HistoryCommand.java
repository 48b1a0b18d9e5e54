package dev.runboard.cli;

import dev.runboard.process.SupervisedSessions;
import dev.runboard.session.Run;
import dev.runboard.session.RunHistory;
import dev.runboard.session.RunKey;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.Sizes;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runboard history ID|--command TEXT}: every run of one command, and how its runs usually go. */
@Command(name = "history", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"List every run of a command (same command, shell or argv, and working dir), oldest first,",
            "then how many ran, their success rate, how long a successful run usually takes and a sparkline of durations."},
        footer = {"", "Examples:", "  runboard history 20261201-0930-ab12", "  runboard history --command 'mvn test'",
            "  runboard history --json 20261201-0930-ab12"})
public final class HistoryCommand implements Callable<Integer> {
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Which which;

    static final class Which {
        @Parameters(paramLabel = "ID", description = "A session of the command (a unique prefix is enough).")
        String id;

        @Option(names = "--command", paramLabel = "TEXT",
                description = "The command as typed (exactly, else the newest session whose command contains TEXT).")
        String command;
    }

    @Option(names = "--json", description = "Print the history as JSON.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        try (SupervisedSessions engine = store.follow()) {
            List<SessionSnapshot> all = engine.sessions().stream().map(s -> s.snapshot(false)).toList();
            RunHistory history = RunHistory.of(key(engine, all), all);
            PrintWriter out = spec.commandLine().getOut();
            out.println(json ? Json.write(asJson(history)) : asTable(history));
            out.flush();
            return 0;
        }
    }

    private RunKey key(SupervisedSessions engine, List<SessionSnapshot> all) throws UsageException {
        if (which.id != null) {
            Session s = StoreAccess.find(engine, which.id);
            return RunKey.of(s.spec());
        }
        SessionSnapshot match = newest(all, s -> s.command().equals(which.command));
        if (match == null) {
            match = newest(all, s -> s.command().contains(which.command));
        }
        if (match == null) {
            throw new UsageException("no session ran a command like '" + which.command + "' (see runboard list)");
        }
        return RunKey.of(match);
    }

    private static SessionSnapshot newest(List<SessionSnapshot> all, java.util.function.Predicate<SessionSnapshot> test) {
        SessionSnapshot found = null;
        for (SessionSnapshot s : all) {
            if (test.test(s)) {
                found = s;
            }
        }
        return found;
    }

    static String asTable(RunHistory h) {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-22s %-9s %-19s %9s %6s %10s%n", "ID", "STATUS", "STARTED", "DURATION", "EXIT", "OUTPUT"));
        for (Run r : h.runs()) {
            b.append(String.format(Locale.ROOT, "%-22s %-9s %-19s %9s %6s %10s%n", r.id(), r.status().word(),
                    r.startedAt() == null ? "-" : STARTED.format(r.startedAt().atZone(ZoneId.systemDefault())),
                    r.ended() ? ListCommand.elapsed(r.durationSeconds()) : "-",
                    r.signal() != null ? "SIG" + r.signal() : r.exitCode() != null ? r.exitCode().toString() : "-",
                    Sizes.format(r.outputBytes())));
        }
        b.append(String.format(Locale.ROOT, "command: %s (%s, in %s)%n", h.key().command(), h.key().mode(), h.key().cwd()));
        b.append(h.summary(ListCommand::elapsed));
        String sparkline = h.sparkline();
        if (!sparkline.isEmpty()) { // no line of nothing while no run has ended
            b.append(System.lineSeparator()).append("durations: ").append(sparkline);
        }
        return b.toString();
    }

    static Map<String, Object> asJson(RunHistory h) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("command", h.key().command());
        m.put("shell", h.key().mode().equals("shell"));
        m.put("cwd", h.key().cwd());
        m.put("runs", h.runs().stream().map(r -> {
            Map<String, Object> run = new LinkedHashMap<>();
            run.put("session_id", r.id());
            run.put("status", r.status().word());
            run.put("started_at", r.startedAt() == null ? null : r.startedAt().toString());
            run.put("duration_seconds", r.durationSeconds());
            run.put("exit_code", r.exitCode());
            run.put("signal", r.signal());
            run.put("output_bytes", r.outputBytes());
            return run;
        }).toList());
        m.put("success_rate", h.successRate());
        m.put("median_success_seconds", h.medianSuccessSeconds());
        m.put("sparkline", h.sparkline());
        return m;
    }
}
