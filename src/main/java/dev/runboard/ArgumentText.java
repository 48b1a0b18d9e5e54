package dev.runboard;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Arguments the JVM could not decode. It turns each byte it cannot read into U+FFFD before
 * {@code main} sees it — every non-ASCII byte when the locale is not UTF-8 (LANG=C, as in cron,
 * containers and service units), an invalid byte otherwise — so {@code exec -- echo café} would run
 * {@code echo caf??} and {@code --cwd} would name a folder that is not there. Such a command line is
 * refused before anything runs, saying which argument and why. A U+FFFD the person really typed (a
 * grep for replacement characters) is told apart by the bytes the kernel kept in
 * {@code /proc/self/cmdline}, read only when an argument holds one.
 */
final class ArgumentText {
    private static final char REPLACEMENT = '\uFFFD';

    private ArgumentText() {
    }

    /** One line saying what is wrong with the first unreadable argument, or null when every one is as typed. */
    static String problem(String[] args) {
        for (String a : args) {
            if (a.indexOf(REPLACEMENT) >= 0) {
                return problem(args, System.getProperty("sun.jnu.encoding"), rawArguments(args.length));
            }
        }
        return null;
    }

    /**
     * @param encoding what the JVM decoded the arguments with
     * @param raw the arguments' bytes as given (the last {@code args.length} of the command line), or null when unknown
     */
    static String problem(String[] args, String encoding, List<byte[]> raw) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].indexOf(REPLACEMENT) < 0) {
                continue;
            }
            byte[] bytes = raw == null ? null : raw.get(i);
            boolean utf8Locale = "UTF-8".equalsIgnoreCase(encoding);
            if (bytes != null && isUtf8(bytes)) {
                if (utf8Locale) {
                    continue; // the replacement character itself, typed
                }
                return "runboard: argument " + (i + 1) + " (" + dev.runboard.cli.ClientArguments.escaped(bytes) + ") is UTF-8, but this runboard runs in"
                        + " a locale whose encoding is " + encoding + " and would read it as " + shown(args[i])
                        + ": run it in a UTF-8 locale (e.g. LANG=C.UTF-8); nothing was run";
            }
            if (bytes != null) {
                return dev.runboard.cli.ClientArguments.notUtf8(i + 1, bytes); // as the supervisor says it for a thin client
            }
            return "runboard: argument " + (i + 1) + " (" + shown(args[i])
                    + ") holds bytes that are not " + (utf8Locale ? "valid UTF-8"
                    : "text in this locale's encoding, " + encoding)
                    + "; runboard passes arguments on as text, so it would run something else than"
                    + " what was typed: give the argument as UTF-8 (a path with such bytes: a glob or a link to it);"
                    + " nothing was run";
        }
        return null;
    }

    private static boolean isUtf8(byte[] bytes) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static String shown(String arg) {
        return arg.replace(REPLACEMENT, '?');
    }

    /** The last {@code count} arguments of this process's command line, as bytes; null where /proc is not. */
    private static List<byte[]> rawArguments(int count) {
        byte[] cmdline;
        try {
            cmdline = Files.readAllBytes(Path.of("/proc/self/cmdline"));
        } catch (IOException | RuntimeException e) {
            return null;
        }
        List<byte[]> all = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < cmdline.length; i++) {
            if (cmdline[i] == 0) {
                all.add(java.util.Arrays.copyOfRange(cmdline, start, i));
                start = i + 1;
            }
        }
        return all.size() < count ? null : all.subList(all.size() - count, all.size());
    }
}
