package dev.runboard.cli;

import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runboard list}: the sessions in the store, as a table or as JSON snapshots. */
@Command(name = "list", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = "List sessions (running and past), oldest first.",
        footer = {"", "Examples:", "  runboard list", "  runboard list --status running", "  runboard list --json"})
public final class ListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Option(names = "--json", description = "Print a JSON array of snapshots (the exec snapshot schema).")
    boolean json;

    @Option(names = "--status", paramLabel = "S",
            description = "Only sessions with this status: running, completed, failed, timeout, killed, unknown.")
    String status;

    @Override
    public Integer call() throws Exception {
        SessionStatus only = status == null ? null : parseStatus(status);
        try (SessionEngine engine = store.open(false)) {
            List<SessionSnapshot> rows = engine.sessions().stream().map(Session::snapshot)
                    .filter(s -> only == null || s.status() == only).toList();
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(Json.write(rows));
            } else {
                out.printf(Locale.ROOT, "%-22s %-9s %9s %6s  %s%n", "ID", "STATUS", "ELAPSED", "EXIT", "COMMAND");
                for (SessionSnapshot s : rows) {
                    out.printf(Locale.ROOT, "%-22s %-9s %9s %6s  %s%n", s.sessionId(), s.status().word(),
                            elapsed(s.elapsedSeconds()), exit(s), oneLine(s.command()));
                }
            }
            out.flush();
            return 0;
        }
    }

    private SessionStatus parseStatus(String word) throws UsageException {
        try {
            return SessionStatus.fromWord(word.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    static String exit(SessionSnapshot s) {
        if (s.signal() != null) {
            return "SIG" + s.signal();
        }
        return s.exitCode() == null ? "-" : String.valueOf(s.exitCode());
    }

    static String elapsed(double seconds) {
        long s = (long) seconds;
        if (s < 60) {
            return String.format(Locale.ROOT, "%.1fs", seconds);
        }
        if (s < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", s / 60, s % 60);
        }
        return String.format(Locale.ROOT, "%dh%02dm", s / 3600, (s % 3600) / 60);
    }

    private static String oneLine(String command) {
        String flat = command.replace('\n', ' ');
        return flat.length() > 80 ? flat.substring(0, 79) + "\u2026" : flat;
    }
}
