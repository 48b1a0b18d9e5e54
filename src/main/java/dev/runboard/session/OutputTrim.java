package dev.runboard.session;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * What the session's wrapper has cut from the start of a capture kept to {@code max_output}
 * (runboard-wrap.pl, "Bounded output"), as its {@value #FILE} file says: the capture's byte 0 is
 * output byte {@link #dropped()}, and {@link #start()} is the output byte of the first whole line
 * kept. Offsets everywhere stay those of the whole output; readers go through {@link OutputFile},
 * which adds {@link #dropped()} and re-reads this after each read, so no read lands in a moved range.
 *
 * @param dropped bytes cut from the file's start
 * @param start the output offset of the first whole line kept (0 when nothing was cut)
 * @param pending bytes of a cut under way (readers wait for it), 0 when none
 * @param unavailable why trimming stopped (the rest is kept whole), null while it goes on
 */
public record OutputTrim(long dropped, long start, long pending, String unavailable) {
    /** The wrapper's file beside the capture. */
    public static final String FILE = "output-trim";
    public static final OutputTrim NONE = new OutputTrim(0, 0, 0, null);

    /** Whether anything was cut. */
    public boolean trimmed() {
        return dropped > 0;
    }

    /** The state beside {@code capture}: {@link #NONE} when the wrapper never had to cut (or the file is unreadable). */
    public static OutputTrim of(Path capture) {
        Path file = fileFor(capture);
        if (file == null) {
            return NONE;
        }
        try {
            return parse(new String(Files.readAllBytes(file), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return NONE;
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    /**
     * The state file of an output: {@value #FILE} beside a capture ({@code sessions/ID/capture.log}), and
     * {@code ID.log.trim} beside an artifact ({@code artifacts/ID.log}), where it moves with the capture, so
     * the artifact is read at the same offsets; null for any other file.
     */
    public static Path fileFor(Path output) {
        Path name = output.getFileName();
        Path folder = output.getParent() == null ? null : output.getParent().getFileName();
        if (name == null) {
            return null;
        }
        if (name.toString().equals("capture.log")) {
            return output.resolveSibling(FILE);
        }
        return folder != null && folder.toString().equals("artifacts") ? output.resolveSibling(name + ".trim") : null;
    }

    static OutputTrim parse(String text) {
        String line = text.strip();
        String[] words = line.split(" ", 4);
        if (words.length < 3) {
            return NONE;
        }
        long dropped = Long.parseLong(words[1]);
        long start = Long.parseLong(words[2]);
        return switch (words[0]) {
            case "trimming" -> new OutputTrim(dropped, start, 0, null);
            case "pending" -> new OutputTrim(dropped, start, words.length > 3 ? Long.parseLong(words[3].strip()) : 1, null);
            case "unavailable" -> new OutputTrim(dropped, start, 0, words.length > 3 ? words[3] : "trimming stopped");
            default -> NONE;
        };
    }
}
