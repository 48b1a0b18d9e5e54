package dev.runboard.cli;

import dev.runboard.artifact.FileSearch;
import dev.runboard.artifact.RunSearch;
import dev.runboard.artifact.ViewerLine;
import dev.runboard.process.EngineConfig;
import dev.runboard.store.ArtifactStore;
import dev.runboard.store.Json;
import dev.runboard.store.OwnOutputFiles;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code runboard grep REGEX [--command TEXT] [--json]}: a regex over the whole output of every
 * run in the data dir, grouped by run. Reads the records and files in-process (no supervisor):
 * it only reads.
 */
@Command(name = "grep", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Search the output of every run (or of the runs whose command contains TEXT) for a regex.",
            "Prints the matching lines grouped by run: the session id, its command and start time, then LINE:TEXT.",
            "Exits 0 when a line matched, 1 when none did, 2 on trouble (a bad regex, an unreadable output), like grep."},
        footer = {"", "Examples:", "  runboard grep 'connection reset'", "  runboard grep --command 'make test' 'FAILED \\w+'",
            "  runboard grep -i --json 'out of memory'"})
public final class GrepCommand implements Callable<Integer> {
    static final int FOUND = 0;
    static final int NONE = 1;
    static final int TROUBLE = 2;
    private static final DateTimeFormatter STARTED = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    @Spec
    CommandSpec spec;

    @Mixin
    StoreAccess store;

    @Parameters(paramLabel = "REGEX", description = "A Java regex, matched within each line (a plain word is a literal search).")
    String regex;

    @Option(names = "--command", paramLabel = "TEXT", description = "Only runs whose command contains TEXT.")
    String command;

    @Option(names = {"-i", "--ignore-case"}, description = "Match letters of either case.")
    boolean ignoreCase;

    @Option(names = "--json", description = "Print a JSON array: one object per run with session_id, command, started_at, file and its lines.")
    boolean json;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        RunSearch search;
        try {
            search = new RunSearch(new FileSearch.Query(regex, !ignoreCase));
        } catch (PatternSyntaxException e) {
            err.println("runboard grep: not a valid regex: " + e.getDescription() + " near index " + e.getIndex()
                    + " of " + regex + " (quote it for the shell; \\ escapes a special character)");
            err.flush();
            return TROUBLE;
        }
        Path dir;
        try {
            dir = store.checked();
        } catch (UsageException e) {
            err.println("runboard grep: " + e.getMessage());
            err.flush();
            return TROUBLE;
        }
        List<RunSearch.RunMatches> found = new ArrayList<>();
        search.search(runs(new SessionStore(dir)), m -> {
            runsFound++;
            if (json) {
                found.add(m);
            } else {
                print(out, m);
            }
        }, troubles::add, () -> false);
        if (json) {
            out.println(Json.write(found.stream().map(GrepCommand::toJson).toList()));
        }
        out.flush();
        troubles.forEach(t -> err.println("runboard grep: " + t));
        err.flush();
        if (!troubles.isEmpty()) {
            return TROUBLE;
        }
        return runsFound == 0 ? NONE : FOUND;
    }

    private int runsFound;
    private final List<String> troubles = new ArrayList<>();

    /** Whether control characters are shown rather than sent: to a terminal, not to a pipe or file. */
    VisibleControls controls = VisibleControls.forStdout();

    private void print(PrintWriter out, RunSearch.RunMatches m) {
        if (runsFound > 1) {
            out.println(); // a blank line between runs
        }
        RunSearch.Run run = m.run();
        out.println("== " + run.id() + "  " + controls.text(run.command().replace('\n', ' '))
                + (run.startedAt() == null ? "" : "  (started " + STARTED.format(run.startedAt()) + ")"));
        for (RunSearch.Line line : m.lines()) {
            out.println(line.number() + ":" + controls.text(line.text()) + (line.cutBytes() > 0 ? "  " + ViewerLine.cutMarker(line.cutBytes()) : ""));
        }
        if (m.moreLines() > 0) {
            out.println("\u2026 " + m.moreLines() + " more matching lines in this run (runboard tail " + run.id() + " | grep)");
        }
        out.flush(); // a person sees each run as soon as it is searched
    }

    private static Map<String, Object> toJson(RunSearch.RunMatches m) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("session_id", m.run().id());
        o.put("command", m.run().command());
        o.put("started_at", m.run().startedAt() == null ? null : m.run().startedAt().toString());
        o.put("file", m.run().file().toString());
        o.put("lines", m.lines().stream().map(l -> Map.of("line", l.number(), "offset", l.offset(), "text", l.text(),
                "cut_bytes", l.cutBytes())).toList());
        o.put("more_lines", m.moreLines());
        return o;
    }

    /** The runs of the data dir, oldest first, with the file holding each one's whole output. */
    private List<RunSearch.Run> runs(SessionStore sessions) {
        ArtifactStore artifacts = EngineConfig.forDataDir(sessions.dataDir()).artifacts();
        List<RunSearch.Run> runs = new ArrayList<>();
        for (String id : sessions.ids()) {
            Optional<SessionRecord> record;
            try {
                record = sessions.loadWithoutPreview(id); // a preview is no part of a search: its output file is
            } catch (IOException | RuntimeException e) {
                continue; // an unreadable record is list's and the window's to report; its output may still be searched by hand
            }
            if (record.isEmpty()) {
                continue;
            }
            SessionRecord r = record.get();
            if (OwnOutputFiles.OUTSIDE_DATA_DIR.equals(r.artifactErrorCode())) {
                troubles.add(r.artifactError()); // its output is not searched, not even the file in its folder
                continue;
            }
            String shown = r.spec().toSpec().displayCommand();
            if (command != null && !shown.contains(command)) {
                continue;
            }
            runs.add(new RunSearch.Run(id, shown, r.startedAt(), output(r, sessions, artifacts)));
        }
        // Ids order runs by the second they started in, then by a random suffix: the start time orders them within it.
        runs.sort(java.util.Comparator.comparing(RunSearch.Run::startedAt,
                java.util.Comparator.nullsLast(java.util.Comparator.naturalOrder())));
        return runs;
    }

    /**
     * Where a run's whole output is: its artifact, its kept capture, or (running) its live capture.
     * A record names absolute paths; in a data dir moved or copied elsewhere, the same files are
     * found at their places in this one.
     */
    private static Path output(SessionRecord r, SessionStore sessions, ArtifactStore artifacts) {
        String recorded = r.artifact() != null ? r.artifact() : r.captureFile();
        Path path = recorded != null ? Path.of(recorded) : null;
        if (path != null && Files.isRegularFile(path)) {
            return path;
        }
        Path here = r.artifact() != null ? artifacts.pathFor(r.id()) : sessions.file(r.id(), SessionStore.CAPTURE);
        return Files.isRegularFile(here) ? here : path;
    }
}
