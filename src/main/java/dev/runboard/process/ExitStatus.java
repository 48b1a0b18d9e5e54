package dev.runboard.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;

/** How a command ended, as its wrapper recorded it: {@code exit N} or {@code signal N}. */
public record ExitStatus(int exitCode, String signal) {

    public static ExitStatus exited(int code) {
        return new ExitStatus(code, null);
    }

    /** A signal death, reported as 128+N like shells and the JDK do. */
    public static ExitStatus signalled(int number) {
        return new ExitStatus(128 + number, Signal.nameOf(number).orElse(String.valueOf(number)));
    }

    /** The status file's content, or empty if the wrapper never wrote one (it was SIGKILLed, or is still waiting). */
    public static Optional<ExitStatus> read(Path file) {
        try {
            String[] words = Files.readString(file, StandardCharsets.US_ASCII).strip().split("\\s+");
            if (words.length == 2) {
                int n = Integer.parseInt(words[1]);
                if (words[0].equals("exit")) {
                    return Optional.of(exited(n));
                }
                if (words[0].equals("signal")) {
                    return Optional.of(signalled(n));
                }
            }
            return Optional.empty();
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException | NumberFormatException e) {
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
