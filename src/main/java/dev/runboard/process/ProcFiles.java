package dev.runboard.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * What Linux's {@code /proc} says of processes: each one's stat, uids, environment and command
 * line, and the whole table. Reads only; a process may vanish between any two reads, so a read
 * of a process that has gone gives "nothing", never an error.
 */
final class ProcFiles {
    private static final Path PROC = Path.of("/proc");

    private ProcFiles() {
    }

    /** The stat of one process, or empty if it has gone (processes vanish between listing and reading). */
    static Optional<ProcInfo> readStat(long pid) {
        return readStat(dir(pid));
    }

    private static Optional<ProcInfo> readStat(Path dir) {
        try {
            return Optional.of(ProcInfo.parseStat(Files.readString(dir.resolve("stat"), StandardCharsets.ISO_8859_1)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Seconds since the boot ({@code /proc/uptime}, 10 ms steps), or 0 where it cannot be read. */
    static double uptimeSeconds() {
        try {
            String s = Files.readString(PROC.resolve("uptime"), StandardCharsets.ISO_8859_1);
            return Double.parseDouble(s.substring(0, s.indexOf(' ')));
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** Every process's stat (those that ended while the table was read are left out). */
    static ProcessTable table() {
        List<ProcInfo> all = new ArrayList<>(256);
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(PROC)) {
            for (Path dir : dirs) {
                String name = dir.getFileName().toString();
                if (!name.isEmpty() && Character.isDigit(name.charAt(0))) {
                    readStat(dir).ifPresent(all::add);
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc: " + e.getMessage(), e);
        }
        return new ProcessTable(all);
    }

    /** The status file of a process ({@code self} for runboard's own). */
    static String status(String pid) throws IOException {
        return Files.readString(PROC.resolve(pid).resolve("status"), StandardCharsets.ISO_8859_1);
    }

    /** The uids of a process, or null when it has gone or its status cannot be read. */
    static long[] uidsOf(long pid) {
        try {
            return uids(status(Long.toString(pid)));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Real, effective, saved and filesystem uid from a /proc status file, or null when it has no Uid line. */
    static long[] uids(String status) {
        String line = field(status, "Uid:");
        if (line == null) {
            return null;
        }
        String[] f = words(line.trim());
        return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3])};
    }

    /**
     * {@code text.split("\\s+")} of a trimmed text, without a regular expression: exec reads its own
     * uids before its command starts and the wrapper's status line after it ended, and each split
     * compiled the pattern anew (docs/BENCHMARKS.md §10, round 5).
     */
    static String[] words(String trimmed) {
        if (trimmed.isEmpty()) {
            return new String[] {""}; // as split gives
        }
        java.util.List<String> words = new java.util.ArrayList<>();
        int start = 0;
        for (int i = 0; i < trimmed.length(); i++) {
            if (isRegexSpace(trimmed.charAt(i))) {
                if (i > start) {
                    words.add(trimmed.substring(start, i));
                }
                start = i + 1;
            }
        }
        if (start < trimmed.length()) {
            words.add(trimmed.substring(start));
        }
        return words.toArray(new String[0]); // not String[]::new: an array constructor reference spins a method-handle class in every JVM (~3 ms)
    }

    /** {@code \\s} of a regular expression: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** The value of a status file's line that starts with {@code name} ("CapEff:"), or null. */
    static String field(String status, String name) {
        int at = status.startsWith(name) ? 0 : status.indexOf("\n" + name);
        if (at < 0) {
            return null;
        }
        int start = status.indexOf(name, at) + name.length();
        int end = status.indexOf('\n', start);
        return status.substring(start, end < 0 ? status.length() : end).trim();
    }

    /** Whether the process's environment holds exactly {@code entry} ({@code NAME=value}); false when unreadable. */
    static boolean hasEnvEntry(long pid, String entry) {
        byte[] env;
        try {
            env = Files.readAllBytes(dir(pid).resolve("environ"));
        } catch (IOException | SecurityException e) {
            return false;
        }
        byte[] needle = entry.getBytes(StandardCharsets.UTF_8);
        for (int start = 0; start < env.length; ) {
            int end = indexOf(env, (byte) 0, start);
            if (end < 0) {
                end = env.length;
            }
            if (Arrays.equals(env, start, end, needle, 0, needle.length)) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    private static int indexOf(byte[] a, byte b, int from) {
        for (int i = from; i < a.length; i++) {
            if (a[i] == b) {
                return i;
            }
        }
        return -1;
    }

    /** The command line with spaces between its arguments; a kernel thread's or a zombie's short name in brackets; "?" once gone. */
    static String commandLine(long pid) {
        Path dir = dir(pid);
        try {
            byte[] raw = Files.readAllBytes(dir.resolve("cmdline"));
            if (raw.length > 0) {
                return new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
            }
        } catch (IOException e) {
            // fall back to the short name below
        }
        return readStat(dir).map(p -> "[" + p.comm() + "]").orElse("?");
    }

    private static Path dir(long pid) {
        return PROC.resolve(Long.toString(pid));
    }
}
