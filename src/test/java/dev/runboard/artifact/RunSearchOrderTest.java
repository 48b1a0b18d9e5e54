package dev.runboard.artifact;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs are searched side by side but handed over in the order given: a big first run, which takes
 * longest, still comes first, and an unreadable run is said in its place without stopping the others.
 */
class RunSearchOrderTest {
    @TempDir
    Path dir;

    @Test
    void runsComeInTheirOrderWhateverTheirSizeAndAProblemTakesItsPlace() throws Exception {
        List<RunSearch.Run> runs = new ArrayList<>();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            Path file = dir.resolve("run" + i + ".log");
            StringBuilder text = new StringBuilder();
            int lines = i == 0 ? 200_000 : 10 + i; // the first run is big: the others finish before it
            for (int n = 0; n < lines; n++) {
                text.append("line ").append(n).append(n % 1000 == 7 ? " needle" : "").append('\n');
            }
            Files.write(file, text.toString().getBytes(StandardCharsets.UTF_8));
            if (i == 5) {
                Files.delete(file);
                Files.createDirectory(file); // not a file runboard reads: said as a problem, in its place
                expected.add("problem run5");
            } else if (i % 3 != 1) {
                expected.add("run" + i);
            }
            runs.add(new RunSearch.Run("run" + i, "cmd", null, i % 3 == 1 ? dir.resolve("gone" + i + ".log") : file));
        }
        List<String> seen = new ArrayList<>();
        new RunSearch(new FileSearch.Query("needle", true)).search(runs, m -> seen.add(m.run().id()),
                problem -> seen.add("problem " + (problem.contains("run5") ? "run5" : problem)), () -> false);
        assertEquals(expected, seen);
    }
}
