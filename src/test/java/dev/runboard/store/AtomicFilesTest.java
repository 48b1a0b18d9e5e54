package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole-file writes by several writers of one file at once: ten `exec`s in a new data dir each install the wrapper. */
class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void writersOfOneFileAtOnceEachSucceedAndTheFileIsOneOfTheirsWhole() throws Exception {
        Path target = dir.resolve("runboard-wrap.pl");
        int writers = 4;
        List<byte[]> contents = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            byte[] c = new byte[64 * 1024 + w];
            Arrays.fill(c, (byte) ('a' + w));
            contents.add(c);
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                byte[] mine = contents.get(w);
                done.add(pool.submit(() -> {
                    for (int i = 0; i < 100; i++) {
                        AtomicFiles.SYSTEM.write(target, mine); // with one temp name for all, a writer failed here
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        byte[] now = Files.readAllBytes(target);
        assertTrue(contents.stream().anyMatch(c -> Arrays.equals(c, now)), "the file is one writer's content, whole");
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(target), left.toList(), "no temp file is left behind");
        }
    }
}
