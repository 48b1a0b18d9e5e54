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
        return FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    }

    /** What stands where the output was is not a file runboard wrote: not read, and said in one line. */
    public static final class NotOutput extends IOException {
        NotOutput(Path file, String what) {
            super(file + " is " + what + ", not the output runboard wrote (it was replaced after it was written):"
                    + " runboard does not read it");
        }
    }
}
