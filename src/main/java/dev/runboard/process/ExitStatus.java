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
 * How a command ended, as its wrapper recorded it: {@code [own |killed |timeout ](exit N|signal N)[ at EPOCH_MS]}.
 *
 * @param cause whether the command ended by itself or after a kill's first signal (runboard-wrap.pl)
 * @param endedAt when the wrapper saw the command end; null when not known (a wrapper older than the
 *     {@code at} field, or a status reported by the JDK)
 */
public record ExitStatus(int exitCode, String signal, Cause cause, Instant endedAt) {

    /** Why the command ended, as far as its wrapper knows. */
    public enum Cause {
        /** It ended before any kill's first signal: its status is its own, whatever was asked after. */
        OWN,
        /** It ended after the first signal of a kill someone asked for. */
        KILLED,
        /** It ended after the first signal of the wrapper's own deadline kill. */
        TIMEOUT,
        /** Not said: a wrapper older than the word, or a status the JDK reported. */
        UNSAID
    }

    public ExitStatus(int exitCode, String signal) {
        this(exitCode, signal, Cause.UNSAID, null);
    }

    public static ExitStatus exited(int code) {
        return new ExitStatus(code, null);
    }

    /** A signal death, reported as 128+N like shells and the JDK do. */
    public static ExitStatus signalled(int number) {
        return new ExitStatus(128 + number, Signal.nameOf(number).orElse(String.valueOf(number)));
    }

    /** The wrapper's deadline ended the command (it sent TERM, then KILL after the grace). */
    public boolean timedOut() {
        return cause == Cause.TIMEOUT;
    }

    public ExitStatus withCause(Cause cause) {
        return new ExitStatus(exitCode, signal, cause, endedAt);
    }

    public ExitStatus withEndedAt(Instant endedAt) {
        return new ExitStatus(exitCode, signal, cause, endedAt);
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

    /** Parses a status line; the older forms without the cause or without {@code at} are accepted too. */
    public static Optional<ExitStatus> parse(String content) {
        String line = content.strip();
        int newline = line.indexOf('\n');
        if (newline >= 0) {
            line = line.substring(0, newline); // the report of the wrapper's deadline kill follows (WrapperReport)
        }
        String[] words = ProcFiles.words(line.strip());
        int i = 0;
        Cause cause = switch (words[0]) {
            case "own" -> Cause.OWN;
            case "killed" -> Cause.KILLED;
            case "timeout" -> Cause.TIMEOUT;
            default -> Cause.UNSAID;
        };
        if (cause != Cause.UNSAID) {
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
            return Optional.of(new ExitStatus(status.exitCode(), status.signal(), cause, endedAt));
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
