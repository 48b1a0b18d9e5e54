package dev.runboard.engine;

import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The client commands as lean clients. {@code runboard start} hands its arguments, working folder
 * and environment to the supervisor, which parses them with the same options as {@code exec} and
 * launches; {@code list}, {@code show}, {@code kill}, {@code signal} and {@code wait} hand over their
 * command line, and the supervisor runs the CLI's own command and sends back what it printed and
 * its exit code. The client loads neither Jackson nor picocli nor the engine, so it costs little
 * more than a JVM's start. Help and version requests go to the full CLI ({@link #handles}).
 */
public final class QuickStart {
    /** Words before {@code --} that the full CLI answers (help, version). */
    private static final Set<String> FULL_CLI = Set.of("-h", "--help", "-V", "--version");
    /** What the supervisor is asked to run: the start subcommand's arguments. */
    static final String OP = "start_argv";
    /** What the supervisor is asked to run for the other client commands: the whole command line. */
    static final String CLI_OP = "cli";
    /** The client commands whose whole work is the supervisor's: it runs them and sends their output back. */
    private static final Set<String> RUN_BY_SUPERVISOR = Set.of("list", "show", "kill", "signal", "wait");
    /** The ones that only read or wait: asked again of a new supervisor if the one asked died before answering. */
    private static final Set<String> READ_ONLY = Set.of("list", "show", "wait");

    private QuickStart() {
    }

    /** Whether this quick path serves these arguments ({@code start ...} without help or version flags). */
    public static boolean handles(String[] args) {
        if (args.length == 0 || !(args[0].equals("start") || RUN_BY_SUPERVISOR.contains(args[0]))) {
            return false;
        }
        for (int i = 1; i < args.length && !args[i].equals("--"); i++) {
            if (FULL_CLI.contains(args[i])) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs a client command: for {@code start} prints the session id (exit 0); for the others what
     * the supervisor's run of the command printed, with its exit code; else one line on stderr
     * (exit 2 for a usage error, else 1).
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        String name = args[0];
        boolean start = name.equals("start");
        // Every byte as the user gave it (RawProcess): an --env value, a --cwd or this folder may not be UTF-8.
        String[] given = start ? RawProcess.arguments(args) : args;
        List<String> argv = start ? absoluteCwd(List.of(given).subList(1, given.length), RawProcess.folder())
                : List.of(args).subList(1, args.length);
        String prefix = "runboard " + name + ": ";
        try {
            Path dataDir = DataDirs.resolve(dataDirFlag(argv));
            try {
                DataDirs.check(dataDir).ifPresent(warning -> err.println(prefix + "warning: " + warning));
            } catch (dev.runboard.store.DataDirException e) {
                err.println(prefix + e.getMessage());
                return 2;
            }
            String request;
            if (start) {
                request = "{\"v\":" + Protocol.VERSION + ",\"op\":\"" + OP + "\",\"argv\":" + FlatJson.list(argv)
                        + ",\"environment\":" + FlatJson.map(RawProcess.environment()) + "}\n";
            } else {
                // The supervisor serves exactly this data dir: the command is told so, whatever its own default.
                List<String> whole = new ArrayList<>(List.of(name, "--data-dir", dataDir.toString()));
                whole.addAll(withoutDataDir(argv));
                request = "{\"v\":" + Protocol.VERSION + ",\"op\":\"" + CLI_OP + "\",\"argv\":" + FlatJson.list(whole) + "}\n";
            }
            SupervisorPaths paths = SupervisorPaths.of(dataDir);
            SocketChannel open = null;
            if (name.equals("list")) {
                try {
                    open = SupervisorSocket.connect(paths);
                } catch (IOException e) {
                    if (!SupervisorSocket.nobodyListens(e)) {
                        throw e;
                    }
                    String listing = fromIndex(dataDir, argv);
                    if (listing != null) {
                        out.print(listing);
                        out.flush();
                        dev.runboard.store.MissingSession.setAsideNote(dataDir).ifPresent(note -> err.println(prefix + "note: " + note));
                        return 0;
                    }
                }
            }
            Map<String, String> reply = ask(paths, open, request, READ_ONLY.contains(name));
            if (!String.valueOf(Protocol.VERSION).equals(reply.get("v"))) {
                int theirs;
                try {
                    theirs = Integer.parseInt(reply.get("v"));
                } catch (NumberFormatException e) {
                    theirs = -1;
                }
                err.println(prefix + Protocol.mismatch(theirs, "supervisor"));
                return 1;
            }
            if (!"true".equals(reply.get("ok"))) {
                err.println(prefix + reply.get("error"));
                return "true".equals(reply.get("usage")) ? 2 : 1;
            }
            if (start) {
                out.println(reply.get("id"));
                out.flush();
                return 0;
            }
            out.print(reply.getOrDefault("out", ""));
            out.flush();
            err.print(reply.getOrDefault("err", ""));
            err.flush();
            return Integer.parseInt(reply.getOrDefault("exit", "1"));
        } catch (IOException | RuntimeException e) {
            err.println(prefix + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 1;
        }
    }

    /**
     * Sends the request on {@code open} (or a connection to the supervisor, started if none runs) and
     * reads its one-line reply. When the supervisor dies before answering (killed, crashed, its idle
     * exit crossing the request), a read-only request is sent again to the next supervisor, which
     * adopts the same sessions; a start, kill or signal is not, and says what to check.
     */
    private static Map<String, String> ask(SupervisorPaths paths, SocketChannel open, String request, boolean readOnly)
            throws IOException {
        if (readOnly) {
            return SupervisorSocket.exchangeReading(paths, open, ch -> reply(paths, ch, request));
        }
        SocketChannel ch = open != null ? open : SupervisorSocket.connectOrStart(paths);
        try (ch) {
            return reply(paths, ch, request);
        } catch (IOException lost) {
            throw new IOException(lost.getMessage() + " (the supervisor died during the request: "
                    + "'runboard list' shows whether it was carried out; see " + paths.log() + ")", lost);
        }
    }

    /** Sends the request's line and reads the supervisor's one-line answer. */
    private static Map<String, String> reply(SupervisorPaths paths, SocketChannel ch, String request) throws IOException {
        OutputStream o = Channels.newOutputStream(ch);
        o.write(request.getBytes(StandardCharsets.UTF_8));
        o.flush();
        String line = new ReplyReader(ch, paths).next();
        if (line == null) {
            throw new IOException("the supervisor closed the connection without answering");
        }
        return FlatJson.readFlat(line);
    }

    /**
     * {@code list}'s output from the index the last supervisor left ({@link ListIndex}), when no
     * supervisor runs and the index is current; else null (a supervisor answers).
     */
    static String fromIndex(Path dataDir, List<String> argv) {
        return listing(argv, () -> ListIndex.readIfCurrent(dataDir).orElse(null));
    }

    /**
     * {@code list}'s output made from these lines, when its arguments are only {@code --status} and
     * {@code --data-dir} (the full CLI answers anything else, and says what is wrong with it); null
     * when the arguments ask for more or there are no lines.
     */
    static String listing(List<String> argv, java.util.function.Supplier<List<ListRows.Row>> lines) {
        String status = null;
        for (int i = 0; i < argv.size(); i++) {
            String a = argv.get(i);
            if ((a.equals("--status") || a.equals("--data-dir")) && i + 1 < argv.size()) {
                if (a.equals("--status")) {
                    status = argv.get(i + 1);
                }
                i++;
            } else if (a.startsWith("--status=")) {
                status = a.substring("--status=".length());
            } else if (!a.startsWith("--data-dir=")) {
                return null;
            }
        }
        String only;
        try {
            only = status == null ? null : dev.runboard.session.SessionStatus.fromWord(status.toLowerCase(java.util.Locale.ROOT)).word();
        } catch (IllegalArgumentException e) {
            return null;
        }
        List<ListRows.Row> rows = lines.get();
        if (rows == null) {
            return null;
        }
        String eol = System.lineSeparator();
        StringBuilder b = new StringBuilder(128 + rows.size() * 120).append(ListRows.header()).append(eol);
        for (ListRows.Row r : rows) {
            if (only == null || only.equals(r.status())) {
                b.append(r.line()).append(eol);
            }
        }
        return b.toString();
    }

    /** The arguments without {@code --data-dir DIR} (before {@code --}): the request names the data dir itself. */
    private static List<String> withoutDataDir(List<String> argv) {
        List<String> out = new ArrayList<>();
        boolean options = true;
        for (int i = 0; i < argv.size(); i++) {
            String a = argv.get(i);
            if (options && a.equals("--")) {
                options = false;
            } else if (options && a.equals("--data-dir") && i + 1 < argv.size()) {
                i++;
                continue;
            } else if (options && a.startsWith("--data-dir=")) {
                continue;
            }
            out.add(a);
        }
        return out;
    }

    /**
     * The supervisor runs in another folder: a relative {@code --cwd} is made absolute here, and
     * without one the client's own folder is the command's.
     */
    static List<String> absoluteCwd(List<String> argv, String here) {
        List<String> out = new ArrayList<>(argv.size() + 2);
        boolean seen = false;
        int i = 0;
        for (; i < argv.size() && !argv.get(i).equals("--"); i++) {
            String a = argv.get(i);
            if (a.equals("--cwd") && i + 1 < argv.size()) {
                out.add(a);
                out.add(resolve(here, argv.get(++i)));
                seen = true;
            } else if (a.startsWith("--cwd=")) {
                out.add("--cwd=" + resolve(here, a.substring("--cwd=".length())));
                seen = true;
            } else {
                out.add(a);
            }
        }
        if (!seen) {
            out.add("--cwd");
            out.add(here);
        }
        out.addAll(argv.subList(i, argv.size()));
        return out;
    }

    /** {@code path} against {@code here}, as text: a Path would lose a byte that is not UTF-8 ({@link RawProcess}). */
    private static String resolve(String here, String path) {
        return path.startsWith("/") || path.isEmpty() ? path : here.endsWith("/") ? here + path : here + "/" + path;
    }

    private static Path dataDirFlag(List<String> argv) {
        for (int i = 0; i < argv.size() && !argv.get(i).equals("--"); i++) {
            if (argv.get(i).equals("--data-dir") && i + 1 < argv.size()) {
                return Path.of(argv.get(i + 1));
            }
            if (argv.get(i).startsWith("--data-dir=")) {
                return Path.of(argv.get(i).substring("--data-dir=".length()));
            }
        }
        return null;
    }
}
