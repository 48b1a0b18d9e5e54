import dev.runboard.artifact.TimeIndexWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.channels.FileChannel;
import java.nio.ByteBuffer;

/**
 * Cost of one time-index sample per session: an fstat of a capture that did not grow (no entry),
 * and of one that grew (an fstat plus a 16-byte write). Run: ./mvnw -B -q package -DskipTests &&
 * java -cp 'target/classes:target/lib/*' bench/TimeIndexTick.java
 */
public class TimeIndexTick {
    public static void main(String[] args) throws Exception {
        Path dir = Files.createTempDirectory("time-index-tick");
        Path capture = dir.resolve("capture.log");
        Files.write(capture, new byte[] {'x', '\n'});
        int n = 200_000;
        try (TimeIndexWriter w = new TimeIndexWriter(capture);
             FileChannel out = FileChannel.open(capture, StandardOpenOption.APPEND)) {
            for (int round = 0; round < 3; round++) { // the last round counts; the first ones warm the JIT
                long t0 = System.nanoTime();
                for (int i = 0; i < n; i++) {
                    w.sample(i);
                }
                long idle = System.nanoTime() - t0;
                ByteBuffer line = ByteBuffer.wrap(new byte[] {'y', '\n'});
                long grewNanos = 0;
                for (int i = 0; i < n / 10; i++) {
                    out.write(line.rewind());
                    long t1 = System.nanoTime();
                    w.sample(i);
                    grewNanos += System.nanoTime() - t1;
                }
                if (round == 2) {
                    System.out.printf("sample, capture unchanged: %.2f µs%n", idle / 1e3 / n);
                    System.out.printf("sample, capture grew (entry written): %.2f µs%n", grewNanos / 1e3 / (n / 10));
                    System.out.printf("one session at 20 ticks/s: %.4f %% of a core while it writes%n", grewNanos / 1e9 / (n / 10) * 20 * 100);
                }
            }
        } finally {
            for (Path p : Files.list(dir).toList()) {
                Files.delete(p);
            }
            Files.delete(dir);
        }
    }
}
