package dev.runboard.process;

import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * How a command ended, as its wrapper recorded it: {@code [timeout ](exit N|signal N)[ at EPOCH_MS]}.
 *
 * @param timedOut the wrapper's deadline ended the command (it sent TERM, then KILL after the grace)
 * @param endedAt when the wrapper saw the command end; null when not known (a wrapper older than the
 *     {@code at} field, or a status reported by the JDK)
 */
public record ExitStatus(int exitCode, String signal, boolean timedOut, Instant endedAt) {

    public ExitStatus(int exitCode, String signal) {
        this(exitCode, signal, false, null);
    }

    public static ExitStatus exited(int code) {
        return new ExitStatus(code, null);
    }

    /** A signal death, reported as 128+N like shells and the JDK do. */
    public static ExitStatus signalled(int number) {
        return new ExitStatus(128 + number, Signal.nameOf(number).orElse(String.valueOf(number)));
    }

    public ExitStatus withTimedOut(boolean timedOut) {
        return new ExitStatus(exitCode, signal, timedOut, endedAt);
    }

    public ExitStatus withEndedAt(Instant endedAt) {
        return new ExitStatus(exitCode, signal, timedOut, endedAt);
    }

    /** The status file's content, or empty if the wrapper never wrote one (it was SIGKILLed, or is still waiting). */
    public static Optional<ExitStatus> read(Path file) {
        try {
            return parse(Files.readString(file, StandardCharsets.ISO_8859_1)); // never malformed: the kill facts below may hold any bytes
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Parses a status line; the older {@code exit N} / {@code signal N} without {@code at} is accepted too. */
    static Optional<ExitStatus> parse(String content) {
        String line = content.strip();
        int newline = line.indexOf('\n');
        if (newline >= 0) {
            line = line.substring(0, newline); // the kill facts of a timeout follow (WrapperKill)
        }
        String[] words = ProcFiles.words(line.strip());
        int i = 0;
        boolean timedOut = words[0].equals("timeout");
        if (timedOut) {
            i++;
        }
        if (words.length != i + 2 && words.length != i + 4) {
            return Optional.empty();
        }
        try {
            int n = Integer.parseInt(words[i + 1]);
            ExitStatus status;
            if (words[i].equals("exit")) {
                status = exited(n);
            } else if (words[i].equals("signal")) {
                status = signalled(n);
            } else {
                return Optional.empty();
            }
            Instant endedAt = null;
            if (words.length == i + 4) {
                if (!words[i + 2].equals("at")) {
                    return Optional.empty();
                }
                endedAt = Instant.ofEpochMilli(Long.parseLong(words[i + 3]));
            }
            return Optional.of(new ExitStatus(status.exitCode(), status.signal(), timedOut, endedAt));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** What the JDK reports for a direct child: 128+N for a signal death (ambiguous with exit 128+N). */
    public static ExitStatus fromJdk(int exitValue) {
        if (exitValue > 128 && exitValue <= 128 + 64) {
            Optional<String> name = Signal.nameOf(exitValue - 128);
            if (name.isPresent()) {
                return new ExitStatus(exitValue, name.get());
            }
        }
        return exited(exitValue);
    }
}
