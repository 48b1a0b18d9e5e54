package dev.runboard.session;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Opens the output runboard wrote (a session's capture, its artifact) for reading, and only that:
 * a regular file, looked at with {@code lstat} before it is opened and opened without following a
 * link. A capture replaced by a link to {@code /etc/shadow} was read through by tail and grep; a
 * FIFO put in its place blocks whoever opens it (JDK 17 cannot open with {@code O_NONBLOCK}). Every
 * reader of output (the preview, the live tail, rules, readiness, tail, grep, diff, the viewer,
 * persisting) opens it here; files the user names (a workspace file, an env file) are not.
 */
public final class OutputFile {
    private OutputFile() {
    }

    /** The file open for reading; {@link NotOutput} when it is a link or a special file; NoSuchFileException when gone. */
    public static FileChannel open(Path file) throws IOException {
        BasicFileAttributes seen = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        if (!seen.isRegularFile()) {
            throw new NotOutput(file, seen.isSymbolicLink() ? "a symbolic link" : seen.isDirectory() ? "a folder" : "a special file");
        }
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        Path trim = OutputTrim.fileFor(file);
        // A capture kept to max_output is read at the whole output's offsets (TrimmedCapture).
        return trim != null && Files.exists(trim, LinkOption.NOFOLLOW_LINKS) ? new TrimmedCapture(channel, file) : channel;
    }

    /**
     * Where a reader that starts at the beginning starts: the first whole line kept when the capture's
     * start was cut ({@code max_output}), else 0.
     */
    public static long start(FileChannel channel) {
        return channel instanceof TrimmedCapture t ? t.settled().start() : 0;
    }

    /** What was cut from the channel's output ({@link OutputTrim#NONE} for a file whose start is whole). */
    public static OutputTrim trim(FileChannel channel) {
        return channel instanceof TrimmedCapture t ? t.settled() : OutputTrim.NONE;
    }

    /** A read of bytes that were dropped from the capture's start (max_output) while, or before, it was read. */
    public static final class Dropped extends IOException {
        private final transient OutputTrim trim;

        Dropped(Path file, OutputTrim trim) {
            super("the first " + trim.dropped() + " bytes of " + file + " were dropped to keep it to max_output");
            this.trim = trim;
        }

        /** Where the output starts now. */
        public long start() {
            return trim.start();
        }
    }

    /** What stands where the output was is not a file runboard wrote: not read, and said in one line. */
    public static final class NotOutput extends IOException {
        NotOutput(Path file, String what) {
            super(file + " is " + what + ", not the output runboard wrote (it was replaced after it was written):"
                    + " runboard does not read it");
        }
    }
}
