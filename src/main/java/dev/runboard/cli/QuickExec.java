package dev.runboard.cli;

import dev.runboard.session.SessionSpec;
import dev.runboard.store.DataDirException;
import dev.runboard.store.DataDirs;
import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * {@code runboard exec [OPTIONS] -- COMMAND...} without picocli. Picocli's classes are Java 5
 * bytecode, which class data sharing on JDK 17 cannot archive: building exec's model cost more
 * CPU than all of the rest of a short {@code exec} (docs/BENCHMARKS.md §10). Only a command line
 * with {@code --} and options in plain {@code --name value} or {@code --name=value} form is read
 * here, into the same {@link SpecOptions} fields; anything else — help, an unknown option, a value
 * that does not convert, an option given twice, a spec {@link SpecOptions#toSpec} rejects, an
 * unusable data dir — is handed whole to picocli before anything has run or been printed, so
 * picocli stays the one voice for usage errors.
 */
final class QuickExec {
    private static final Set<String> FLAGS = Set.of("--no-shell", "--pty");
    private static final Set<String> REPEATABLE = Set.of("--env", "--fail-on", "--highlight", "--notify-on");
    private static final Set<String> SINGLE = Set.of("--shell", "--cwd", "--timeout", "--grace", "--preview-bytes",
            "--max-output", "--nice", "--hang-after", "--hang-action", "--max-rss", "--max-cpu", "--max-cpu-for", "--data-dir");

    private QuickExec() {
    }

    /** Runs exec for these arguments (those after {@code exec}) and returns its exit code; empty when picocli must read them. */
    static Optional<Integer> tryRun(String[] args, PrintWriter out, PrintWriter err) {
        try {
            return run(args, out, err);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("runboard exec: " + e.getMessage(), e); // as picocli's execute would end
        }
    }

    private static Optional<Integer> run(String[] args, PrintWriter out, PrintWriter err) throws Exception {
        SpecOptions options = new SpecOptions();
        options.grace = "2"; // picocli's defaultValue of each
        options.previewBytes = "65536";
        List<String> env = new ArrayList<>();
        List<String> failOn = new ArrayList<>();
        List<String> highlight = new ArrayList<>();
        List<String> notifyOn = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Path dataDir = null;
        int i = 0;
        try {
            for (; i < args.length && !args[i].equals("--"); i++) {
                String name = args[i];
                String value = null;
                int eq = name.indexOf('=');
                if (eq > 0) {
                    value = name.substring(eq + 1);
                    name = name.substring(0, eq);
                }
                if (FLAGS.contains(name) && value == null && seen.add(name)) {
                    options.noShell |= name.equals("--no-shell");
                    options.pty |= name.equals("--pty");
                    continue;
                }
                if (!(REPEATABLE.contains(name) || SINGLE.contains(name) && seen.add(name))) {
                    return Optional.empty();
                }
                if (value == null) {
                    if (++i >= args.length || args[i].startsWith("-")) {
                        return Optional.empty(); // a missing value, or one picocli may read as an option
                    }
                    value = args[i];
                }
                switch (name) {
                    case "--env" -> env.add(value);
                    case "--fail-on" -> failOn.add(value);
                    case "--highlight" -> highlight.add(value);
                    case "--notify-on" -> notifyOn.add(value);
                    case "--shell" -> options.shell = Path.of(value);
                    case "--cwd" -> options.cwd = dev.runboard.session.RawPaths.path(value);
                    case "--timeout" -> options.timeout = value;
                    case "--grace" -> options.grace = value;
                    case "--preview-bytes" -> options.previewBytes = value;
                    case "--max-output" -> options.maxOutput = value;
                    case "--nice" -> options.nice = value;
                    case "--hang-after" -> options.hangAfter = value;
                    case "--hang-action" -> options.hangAction = value;
                    case "--max-rss" -> options.maxRss = value;
                    case "--max-cpu" -> options.maxCpuPercent = value;
                    case "--max-cpu-for" -> options.maxCpuFor = value;
                    case "--data-dir" -> dataDir = Path.of(value);
                    default -> throw new IllegalStateException(name);
                }
            }
        } catch (NumberFormatException | InvalidPathException e) {
            return Optional.empty();
        }
        if (i >= args.length - 1) {
            return Optional.empty(); // no "--", or no command after it
        }
        options.env = env;
        options.failOn = failOn;
        options.highlight = highlight;
        options.notifyOn = notifyOn;
        options.commandWords = List.of(args).subList(i + 1, args.length);
        SessionSpec spec;
        Path dir;
        try {
            spec = options.toSpec();
            dir = DataDirs.resolve(dataDir);
            DataDirs.check(dir).ifPresent(warning -> {
                err.println("runboard exec: warning: " + warning);
                err.flush();
            });
        } catch (IllegalArgumentException | DataDirException e) {
            return Optional.empty();
        }
        return Optional.of(new ExecCommand().run(dir, spec, out, err));
    }
}
