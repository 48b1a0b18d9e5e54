package dev.runboard.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host helper's output stream ({@code runboard-remote.pl follow}), run here as ssh runs it there: every byte
 * of a session's output arrives once and in order, in frames that say where they belong, then the end frame.
 * Its bytes go by sendfile(2) where the kernel takes stdout as the target (a pipe, as under sshd), and read and
 * written where it refuses it (an O_APPEND file: splice refuses those): both must carry the same bytes.
 */
class HelperFollowTest {
    /** Larger than one frame (4 MiB), not a multiple of a page, every byte value. */
    private static final int SIZE = 9 * (1 << 20) + 12_345;

    @TempDir
    Path dir;

    @Test
    void aPipeGetsEveryByteOnceInOrderThenTheEnd() throws Exception {
        byte[] output = sessionOutput();
        Process follow = startFollow(ProcessBuilder.Redirect.PIPE);
        try {
            assertArrayEquals(output, frames(follow.getInputStream(), output.length));
        } finally {
            end(follow);
        }
    }

    @Test
    void aTargetSendfileRefusesGetsTheSameBytesReadAndWritten() throws Exception {
        byte[] output = sessionOutput();
        Path stream = dir.resolve("stream");
        Process follow = startFollow(ProcessBuilder.Redirect.appendTo(stream.toFile()));
        try {
            // Its end frame, "s1 SIZE 0", is the last thing it writes (the helper then waits for its input to end).
            byte[] last = (" " + output.length + " 0\n").getBytes(StandardCharsets.US_ASCII);
            dev.runboard.testing.Poll.waitFor(60, TimeUnit.SECONDS, () -> endsWith(Files.readAllBytes(stream), last));
            try (InputStream in = Files.newInputStream(stream)) {
                assertArrayEquals(output, frames(in, output.length));
            }
        } finally {
            end(follow);
        }
    }

    private byte[] sessionOutput() throws IOException {
        byte[] output = new byte[SIZE];
        new Random(46).nextBytes(output);
        Path session = Files.createDirectories(dir.resolve("helper/s/s1"));
        Files.write(session.resolve("out"), output);
        Files.writeString(session.resolve("status"), "0\n"); // ended: after its last byte, the end frame
        return output;
    }

    private Process startFollow(ProcessBuilder.Redirect stdout) throws IOException {
        Path script = dir.resolve("runboard-remote.pl");
        try (InputStream in = HelperFollowTest.class.getResourceAsStream("/dev/runboard/remote/runboard-remote.pl")) {
            Files.copy(in, script);
        }
        Process p = new ProcessBuilder("perl", script.toString(), dir.resolve("helper").toString(), "follow")
                .redirectOutput(stdout).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        OutputStream requests = p.getOutputStream();
        requests.write("s1 0\n".getBytes(StandardCharsets.US_ASCII)); // follow s1 from its first byte
        requests.flush(); // kept open: the helper ends when runboard closes its input
        return p;
    }

    /** The bytes of s1's frames, in the order sent, up to its end frame; each frame must continue the last. */
    private static byte[] frames(InputStream raw, int expected) throws IOException {
        DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(raw));
        ByteArrayOutputStream got = new ByteArrayOutputStream(expected);
        while (true) {
            String[] header = line(in).split(" ");
            assertEquals(3, header.length, "a frame header is ID OFFSET LENGTH");
            assertEquals("s1", header[0]);
            assertEquals(got.size(), Long.parseLong(header[1]), "each frame starts where the last ended");
            int length = Integer.parseInt(header[2]);
            if (length == 0) {
                return got.toByteArray();
            }
            byte[] bytes = new byte[length];
            in.readFully(bytes);
            got.write(bytes);
        }
    }

    private static boolean endsWith(byte[] bytes, byte[] end) {
        return bytes.length >= end.length
                && java.util.Arrays.equals(bytes, bytes.length - end.length, bytes.length, end, 0, end.length);
    }

    private static String line(InputStream in) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("the stream ended in the middle of a frame header: " + b);
            }
            b.append((char) c);
        }
        return b.toString();
    }

    private static void end(Process p) throws InterruptedException {
        try {
            p.getOutputStream().close(); // the helper's end of input: it leaves
        } catch (IOException gone) {
            // already gone
        }
        if (!p.waitFor(10, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
        }
    }
}
