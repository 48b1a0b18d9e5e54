package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonTypeName;
import dev.runboard.session.RawText;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code cli}, bin/runboard's thin client's one request (runboard-client.pl): run a command line here, with the
 * CLI's own code, for the client; its reply is streamed in frames ({@link ThinClientCall}), not one line. Every
 * string is hex of the client's bytes, UTF-8 or not: {@code argv} the words after {@code runboard}, {@code env}
 * its environment's {@code K=V} entries, sorted by their bytes, {@code cwd} its folder; {@code terminal}
 * whether its stdin and stdout are a terminal.
 */
@JsonTypeName(ThinClientCall.OP)
record CliRequest(List<String> argv, List<String> env, String cwd, Boolean terminal) implements Request<CliRequest.Reply> {
    private static final HexFormat HEX = HexFormat.of();

    /**
     * The reply's last line, after the frames of output ({@code {"v":4,"out":HEX}}, {@code {"v":4,"err":HEX}}, which
     * {@link ThinClientCall} writes as the command prints): the command's exit code.
     */
    record Reply(int exit) implements Protocol.Reply {
    }

    /** The request for these bytes, as the Perl client makes it (its environment in the order of Perl's {@code sort}). */
    static CliRequest of(List<byte[]> argv, Map<byte[], byte[]> environment, byte[] cwd, boolean terminal) {
        List<String> words = argv.stream().map(HEX::formatHex).toList();
        List<String> entries = environment.entrySet().stream()
                .sorted((a, b) -> java.util.Arrays.compareUnsigned(a.getKey(), b.getKey()))
                .map(e -> {
                    byte[] entry = new byte[e.getKey().length + 1 + e.getValue().length];
                    System.arraycopy(e.getKey(), 0, entry, 0, e.getKey().length);
                    entry[e.getKey().length] = '=';
                    System.arraycopy(e.getValue(), 0, entry, e.getKey().length + 1, e.getValue().length);
                    return HEX.formatHex(entry);
                }).toList();
        return new CliRequest(words, entries, HEX.formatHex(cwd), terminal);
    }

    /** Whether every field is there and every string is hex: else the request is refused and nothing runs. */
    boolean wellFormed() {
        boolean words = argv != null && !argv.isEmpty() && env != null && cwd != null && terminal != null;
        return words && argv.stream().allMatch(CliRequest::isHex) && env.stream().allMatch(CliRequest::isHex) && isHex(cwd);
    }

    List<String> words() {
        List<String> out = new ArrayList<>();
        argv.forEach(w -> out.add(text(w)));
        return out;
    }

    /** The environment as RawText; the first of two entries for one name wins, as for a process's own. */
    Map<String, String> environment() {
        Map<String, String> out = new LinkedHashMap<>();
        for (String e : env) {
            String entry = text(e);
            int eq = entry.indexOf('=', 1);
            if (eq > 0) {
                out.putIfAbsent(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return out;
    }

    String folder() {
        return text(cwd);
    }

    private static boolean isHex(String t) {
        if (t == null || t.length() % 2 != 0) {
            return false;
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')) {
                return false;
            }
        }
        return true;
    }

    /** A word sent as hex, as RawText; an unreadable one as empty (the command then says what is missing). */
    private static String text(String hex) {
        try {
            return RawText.decode(HEX.parseHex(hex));
        } catch (IllegalArgumentException e) {
            return "";
        }
    }

    /** Never called: a cli request's reply is streamed ({@link ThinClientCall#serve}). */
    @Override
    public Reply answer(Served served) {
        throw new UnsupportedOperationException("a cli request is answered in frames (ThinClientCall)");
    }
}
