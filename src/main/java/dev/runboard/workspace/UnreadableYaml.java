package dev.runboard.workspace;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A workspace file that is not YAML text at all: bytes that are not UTF-8, or YAML that does not
 * parse. Each is said as what is wrong and where, for a person at the file: the decoder's own
 * exception names no place, and SnakeYAML's message puts the context ("while scanning for the
 * next token") first and the problem, with its place, on later lines that a one-line message drops.
 */
final class UnreadableYaml {
    private UnreadableYaml() {
    }

    /** The file's text; bytes that are not UTF-8 fail with the line and column of the first of them. */
    static String decode(Path file, byte[] bytes) throws WorkspaceException {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError()) {
            decoder.flush(out);
            return out.flip().toString();
        }
        // On an error the decoder stops before the bad bytes: what it wrote so far gives their place.
        int bad = in.position();
        String before = out.flip().toString();
        int line = 1 + (int) before.chars().filter(c -> c == '\n').count();
        int column = before.length() - before.lastIndexOf('\n');
        throw new WorkspaceException(file, String.format(java.util.Locale.ROOT,
                "not UTF-8 text (byte 0x%02X): a workspace file must be saved as UTF-8", bytes[bad] & 0xFF), line, column, null);
    }

    /** SnakeYAML's syntax error behind Jackson's exception (the parser's, or the binding's wrapping it), or null. */
    static MarkedYAMLException syntaxIn(Throwable e) {
        for (Throwable t = e; t != null && t.getCause() != t; t = t.getCause()) {
            if (t instanceof MarkedYAMLException syntax) {
                return syntax;
            }
        }
        return null;
    }

    /** SnakeYAML's syntax error as its problem, at the problem's place, with the context's place when it is elsewhere. */
    static WorkspaceException syntax(Path file, MarkedYAMLException e, Throwable cause) {
        Mark at = e.getProblemMark() != null ? e.getProblemMark() : e.getContextMark();
        String problem = e.getProblem() != null ? plain(e.getProblem()) : plain(e.getContext());
        Mark from = e.getContextMark();
        if (e.getProblem() != null && e.getContext() != null && from != null && at != null
                && (from.getLine() != at.getLine() || from.getColumn() != at.getColumn())) {
            problem += " (" + e.getContext() + " that starts at " + (from.getLine() + 1) + ":" + (from.getColumn() + 1) + ")";
        }
        return at == null ? new WorkspaceException(file, problem, 0, 0, cause)
                : new WorkspaceException(file, problem, at.getLine() + 1, at.getColumn() + 1, cause);
    }

    /** SnakeYAML's wording where it speaks its own jargon. */
    private static String plain(String problem) {
        if (problem.contains("\\t(TAB)")) {
            return "a tab where YAML allows only spaces: indent with spaces";
        }
        return problem.replace("'<block mapping start>'", "a key indented unlike the ones before it")
                .replace("<block end>", "the end of the block")
                .replace("<stream end>", "the end of the file").replace("end of stream", "end of the file").strip();
    }
}
