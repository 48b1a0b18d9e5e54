package dev.runboard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runboard list}: the sessions of the data dir, as the supervisor knows them; reading never deletes. */
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
            description = "Only sessions with this status: pending, queued, running, paused, completed, failed, timeout,"
                    + " killed, skipped, unknown.")
    String status;

    @Override
    public Integer call() throws Exception {
        SessionStatus only = status == null ? null : parseStatus(status);
        List<JsonNode> rows = new ArrayList<>();
        for (JsonNode s : store.client().list()) {
            if (only == null || only.word().equals(s.path("status").asText())) {
                rows.add(s);
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(Json.write(rows));
        } else {
            out.printf(Locale.ROOT, "%-22s %-9s %9s %6s %-17s  %s%n", "ID", "STATUS", "ELAPSED", "EXIT", "PROGRESS", "COMMAND");
            for (JsonNode s : rows) {
                out.printf(Locale.ROOT, "%-22s %-9s %9s %6s %-17s  %s%n", s.path("session_id").asText(), s.path("status").asText(),
                        elapsed(s.path("elapsed_seconds").asDouble()), exit(s), progress(s), oneLine(s.path("command").asText()) + stackNote(s));
            }
        }
        out.flush();
        return 0;
    }

    private SessionStatus parseStatus(String word) throws UsageException {
        try {
            return SessionStatus.fromWord(word.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** For a stack's session: starting/ready while it runs with a probe, and why it waits or was skipped. */
    static String stackNote(JsonNode s) {
        String status = s.path("status").asText();
        String note = "";
        if (s.hasNonNull("ready") && status.equals("running")) {
            note = s.get("ready").asBoolean() ? "  [ready]" : "  [starting]";
        }
        if ((status.equals("pending") || status.equals("queued") || status.equals("skipped")) && s.hasNonNull("reason")) {
            note += "  (" + s.get("reason").asText() + ")";
        }
        return note;
    }

    static String exit(JsonNode s) {
        if (s.hasNonNull("signal")) {
            return "SIG" + s.get("signal").asText();
        }
        return s.hasNonNull("exit_code") ? s.get("exit_code").asText() : "-";
    }

    /** "45% 12.0s left", "longer than usual", or "-" when the command has too few earlier runs to tell. */
    static String progress(JsonNode s) {
        if (s.path("longer_than_usual").asBoolean()) {
            return "longer than usual";
        }
        if (!s.hasNonNull("progress")) {
            return "-";
        }
        String eta = s.hasNonNull("eta_seconds") ? " " + elapsed(s.get("eta_seconds").asDouble()) + " left" : "";
        return Math.round(s.get("progress").asDouble() * 100) + "%" + eta;
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
