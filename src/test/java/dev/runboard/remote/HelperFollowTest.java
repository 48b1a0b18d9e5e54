package dev.runboard.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host helper's output stream ({@code runboard-remote.pl follow ID OFFSET}), run here as ssh runs it there: the
 * session's bytes from the offset on, raw, each once and in order, as the command writes them, then exit 0 once the
 * command has ended. Its bytes go by sendfile(2) where the kernel takes stdout as the target (a pipe, as under
 * sshd), and read and written where it refuses it (an O_APPEND file: splice refuses those): both carry the same bytes.
 */
class HelperFollowTest {
    /** Larger than one sendfile call (4 MiB), not a multiple of a page, every byte value. */
    private static final int SIZE = 9 * (1 << 20) + 12_345;
    /** Where a stream asked again after a dropped connection starts: not a page boundary. */
    private static final int FROM = 1_000_003;

    @TempDir
    Path dir;

    @Test
    void aPipeGetsEveryByteFromTheOffsetOnceInOrderThenTheHelperEnds() throws Exception {
        byte[] output = sessionOutput(true);
        Process follow = startFollow("s1", FROM, ProcessBuilder.Redirect.PIPE);
        byte[] got = follow.getInputStream().readAllBytes();
        assertTrue(follow.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, follow.exitValue(), "an ended command whose bytes are all sent ends its stream");
        assertArrayEquals(Arrays.copyOfRange(output, FROM, output.length), got);
    }

    @Test
    void aTargetSendfileRefusesGetsTheSameBytesReadAndWritten() throws Exception {
        byte[] output = sessionOutput(true);
        Path stream = dir.resolve("stream");
        Process follow = startFollow("s1", 0, ProcessBuilder.Redirect.appendTo(stream.toFile()));
        assertTrue(follow.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, follow.exitValue());
        assertArrayEquals(output, Files.readAllBytes(stream));
    }

    @Test
    void bytesWrittenWhileItFollowsArriveAsTheyComeAndTheStatusEndsIt() throws Exception {
        byte[] output = sessionOutput(false);
        Path stream = dir.resolve("stream");
        Process follow = startFollow("s1", 0, ProcessBuilder.Redirect.appendTo(stream.toFile()));
        try {
            dev.runboard.testing.Poll.waitFor(60, TimeUnit.SECONDS, () -> Files.size(stream) == output.length);
            assertTrue(follow.isAlive(), "a command still running keeps its stream open");
            byte[] more = "and then some more\n".getBytes(StandardCharsets.US_ASCII);
            Path out = dir.resolve("helper/s/s1/out");
            Files.write(out, more, StandardOpenOption.APPEND);
            dev.runboard.testing.Poll.waitFor(60, TimeUnit.SECONDS, () -> Files.size(stream) == output.length + more.length);
            Files.writeString(dir.resolve("helper/s/s1/status"), "0\n");
            assertTrue(follow.waitFor(60, TimeUnit.SECONDS), "the status ends the stream");
            assertEquals(0, follow.exitValue());
            byte[] got = Files.readAllBytes(stream);
            assertArrayEquals(more, Arrays.copyOfRange(got, output.length, got.length));
            assertArrayEquals(output, Arrays.copyOf(got, output.length));
        } finally {
            follow.destroyForcibly().waitFor();
        }
    }

    @Test
    void aSessionForgottenWhileFollowedEndsItsStream() throws Exception {
        sessionOutput(false);
        Process follow = startFollow("s1", 0, ProcessBuilder.Redirect.DISCARD);
        try {
            Path session = dir.resolve("helper/s/s1");
            try (var files = Files.list(session)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(session);
            assertTrue(follow.waitFor(60, TimeUnit.SECONDS), "no status will come: the helper leaves");
            assertEquals(3, follow.exitValue());
        } finally {
            follow.destroyForcibly().waitFor();
        }
    }

    @Test
    void theEndOfItsInputEndsItWhileTheCommandRuns() throws Exception {
        sessionOutput(false);
        Process follow = startFollow("s1", 0, ProcessBuilder.Redirect.DISCARD);
        try {
            follow.getOutputStream().close(); // runboard gone
            assertTrue(follow.waitFor(60, TimeUnit.SECONDS), "nobody to send to: the helper leaves");
            assertEquals(1, follow.exitValue());
        } finally {
            follow.destroyForcibly().waitFor();
        }
    }

    @Test
    void aSessionThatIsNotThereSaysSoOnStderrAndWritesNothingToTheCapture() throws Exception {
        sessionOutput(true);
        Path stream = dir.resolve("stream");
        Process follow = startFollow("s9", 0, ProcessBuilder.Redirect.appendTo(stream.toFile()));
        String err = new String(follow.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(follow.waitFor(60, TimeUnit.SECONDS));
        assertEquals(3, follow.exitValue());
        assertEquals("error gone: no session s9 here\n", err);
        assertEquals(0, Files.size(stream), "the capture gets no message");
    }

    private byte[] sessionOutput(boolean ended) throws IOException {
        byte[] output = new byte[SIZE];
        new Random(46).nextBytes(output);
        Path session = Files.createDirectories(dir.resolve("helper/s/s1"));
        Files.write(session.resolve("out"), output);
        if (ended) {
            Files.writeString(session.resolve("status"), "0\n");
        }
        return output;
    }

    private Process startFollow(String id, long offset, ProcessBuilder.Redirect stdout) throws IOException {
        Path script = dir.resolve("runboard-remote.pl");
        if (!Files.exists(script)) {
            try (InputStream in = HelperFollowTest.class.getResourceAsStream("/dev/runboard/remote/runboard-remote.pl")) {
                Files.copy(in, script);
            }
        }
        // Its input a pipe held open, as runboard holds it: its end says runboard has gone.
        return new ProcessBuilder("perl", script.toString(), dir.resolve("helper").toString(), "follow", id, Long.toString(offset))
                .redirectOutput(stdout).start();
    }
}
