package dev.runboard.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.store.Json;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Output of any shape in bounded memory: one line of 20 MB without a newline (what a progress bar
 * redrawn with CR alone becomes) through {@code tail --timestamps} and {@code diff}, run as a user
 * runs them but in a JVM whose heap is smaller than the line and than the buffers a command that
 * held the whole line would grow (a 32 MiB array while its 16 MiB one is still live). Each
 * command must end normally with the whole line in its output.
 */
class LongLineCliTest {
    private static final int LINE = 20_000_000;
    private static final String HEAP = "-Xmx40m";

    @TempDir
    Path dataDir;

    private record Child(int exit, Path out, String err) {
    }

    @Test
    void tailWithTimestampsStampsALongLineOnceAndCopiesItWhole() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = exec(fx, "head -c " + LINE + " /dev/zero | tr '\\0' x");
            Child tail = runboard("tail", "--timestamps", id);
            assertEquals(0, tail.exit(), tail.err());
            String stamp = head(tail.out(), 13);
            assertTrue(stamp.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d "), stamp);
            assertEquals(13 + LINE + 1, Files.size(tail.out()), "one stamp, the line, the newline added at the end");
            assertEquals(LINE, count(tail.out(), 13, (byte) 'x'), "every byte of the line, as written");
        }
    }

    @Test
    void diffComparesLongLinesByTheirWholeTextAndPrintsThemWhole() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String first = exec(fx, "head -c " + LINE + " /dev/zero | tr '\\0' x");
            String again = exec(fx, "head -c " + LINE + " /dev/zero | tr '\\0' x");
            String lastByte = exec(fx, "head -c " + (LINE - 1) + " /dev/zero | tr '\\0' x; printf y");

            Child same = runboard("diff", "-q", first, again);
            assertEquals(0, same.exit(), same.err());
            Child brief = runboard("diff", "-q", first, lastByte);
            assertEquals(1, brief.exit(), "only the last of 20 million bytes differs: " + brief.err());

            Child diff = runboard("diff", first, lastByte);
            assertEquals(1, diff.exit(), diff.err());
            String header = "--- " + first + "\n+++ " + lastByte + "\n@@ -1 +1 @@\n-";
            String noNewline = "\n\\ No newline at end of file\n";
            assertEquals(header, head(diff.out(), header.length()));
            assertEquals(header.length() + LINE + noNewline.length() + 1 + LINE + noNewline.length(), Files.size(diff.out()),
                    "both lines printed whole");
            assertEquals(2 * LINE - 1, count(diff.out(), header.length(), (byte) 'x'));
            String end = "y" + noNewline;
            try (RandomAccessFile f = new RandomAccessFile(diff.out().toFile(), "r")) {
                byte[] tail = new byte[end.length()];
                f.seek(f.length() - tail.length);
                f.readFully(tail);
                assertEquals(end, new String(tail, StandardCharsets.UTF_8));
            }
        }
    }

    private static String exec(SupervisorFixture fx, String command) throws IOException {
        SupervisorFixture.Result exec = fx.cli("exec", "--shell", "/bin/sh", "--", command);
        assertEquals(0, exec.exit(), exec.err());
        JsonNode snap = Json.mapper().readTree(exec.out());
        return snap.get("session_id").asText();
    }

    /** The CLI in a JVM of its own with a small heap, its output to a file. */
    private Child runboard(String command, String... args) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> argv = new ArrayList<>(List.of(java, HEAP, "-cp", System.getProperty("java.class.path"),
                "dev.runboard.Launcher", command, "--data-dir", dataDir.toString()));
        argv.addAll(List.of(args));
        Path out = Files.createTempFile(dataDir, command, ".out");
        Path err = Files.createTempFile(dataDir, command, ".err");
        Process p = new ProcessBuilder(argv).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "runboard " + command + " did not end");
        return new Child(p.exitValue(), out, Files.readString(err));
    }

    private static String head(Path file, int bytes) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return new String(in.readNBytes(bytes), StandardCharsets.UTF_8);
        }
    }

    /** How many bytes equal to {@code b} the file holds from {@code from} on. */
    private static long count(Path file, long from, byte b) throws IOException {
        long n = 0;
        try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            in.skipNBytes(from);
            byte[] chunk = new byte[1 << 16];
            for (int read; (read = in.read(chunk)) > 0; ) {
                for (int i = 0; i < read; i++) {
                    n += chunk[i] == b ? 1 : 0;
                }
            }
        }
        return n;
    }
}
