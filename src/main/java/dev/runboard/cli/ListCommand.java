package dev.runboard.cli;

import dev.runboard.engine.ListRows;
import dev.runboard.engine.ShownSnapshot;
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
        footer = {"", "Examples:", "  runboard list", "  runboard list --status running", "  runboard list --json",
            "  runboard kill $(runboard list -q --status running)"})
public final class ListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Option(names = "--json", description = "Print a JSON array of snapshots (the exec snapshot schema).")
    boolean json;

    @Option(names = {"-q", "--quiet"}, description = "Print only the session ids, one a line (for scripts and shell completion).")
    boolean quiet;

    @Option(names = "--reveal", description = "With --json: secret environment values as given, not ••••.")
    boolean reveal;

    @Option(names = "--status", paramLabel = "S",
            description = "Only sessions with this status: pending, queued, running, paused, completed, failed, timeout,"
                    + " killed, skipped, unknown.")
    String status;

    @Override
    public Integer call() throws Exception {
        SessionStatus only = status == null ? null : parseStatus(status);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            List<com.fasterxml.jackson.databind.node.ObjectNode> rows = new ArrayList<>();
            for (ShownSnapshot s : store.client().list(reveal)) {
                if (only == null || only == s.status()) {
                    rows.add(s.json());
                }
            }
            out.println(Json.write(rows));
        } else {
            // The supervisor renders the lines (and keeps those of ended sessions): a long history costs it
            // no JSON of every snapshot, and a client with no supervisor up prints the same from its index.
            List<ListRows.Row> rows = store.client().listRows(); // before the header: a data dir it refuses prints nothing
            if (!quiet) {
                out.println(ListRows.header());
            }
            for (ListRows.Row row : rows) {
                if (only == null || only.word().equals(row.status())) {
                    out.println(quiet ? row.id() : row.line());
                }
            }
        }
        out.flush();
        dev.runboard.store.MissingSession.setAsideNote(store.resolve()).ifPresent(note -> {
            spec.commandLine().getErr().println("runboard list: note: " + note);
            spec.commandLine().getErr().flush();
        });
        return 0;
    }

    private SessionStatus parseStatus(String word) throws UsageException {
        try {
            return SessionStatus.fromWord(word.toLowerCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    static String elapsed(double seconds) {
        return ListRows.elapsed(seconds);
    }
}
