package dev.runboard.ui.viewer;

import dev.runboard.artifact.ArtifactFile;
import dev.runboard.artifact.FileSearch;
import dev.runboard.artifact.LineIndex;
import dev.runboard.artifact.PageReader;
import java.io.BufferedOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 5 benchmark #5: the viewer's last page of 1 GB and 5 GB files (open + End, what the End
 * button runs on the viewer's worker before one hand-off to the FX thread), baseline {@code tail -n};
 * and whole-file search vs {@code grep -c} on the same 1 GB file, interleaved rounds (a literal,
 * the same literal case-insensitive vs {@code grep -c -i}, two regexes with a required literal).
 * {@code ./mvnw -B -Pbench test -Dtest=ViewerBenchmark -Dbench.rounds=5 -Dbench.dir=DIR} (bench/viewer.sh).
 * Lives beside the viewer (package-private classes); tagged like the other benchmarks.
 */
@Tag("bench")
class ViewerBenchmark {
    private static final int ROUNDS = Integer.getInteger("bench.rounds", 5);

    @Test
    void lastPageAndSearchSpeed() throws Exception {
        Path dir = Files.createTempDirectory(Path.of(System.getProperty("bench.dir", System.getProperty("java.io.tmpdir"))), "viewer-bench");
        try {
            Path gb1 = write(dir.resolve("1g.log"), 1L << 30);
            System.out.printf(Locale.ROOT, "#5 viewer: %s, %d bytes, lines like `2026-11-29 12:00:01.123 INFO  [worker-7] step 123456 …`, 1 in 1000 an ERROR%n", gb1.getFileName(), Files.size(gb1));
            lastPage(gb1);
            search(gb1, "ERROR", true, "ERROR");
            search(gb1, "error", false, "error");
            search(gb1, "ERROR code \\d+", true, "ERROR code [0-9]+");
            search(gb1, "timeout after \\d+ ms", true, "timeout after [0-9]+ ms");
            Files.delete(gb1);
            if (!Boolean.getBoolean("bench.skip5g")) {
                Path gb5 = write(dir.resolve("5g.log"), 5L << 30);
                lastPage(gb5);
                Files.delete(gb5);
            }
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void lastPage(Path file) throws Exception {
        List<Double> ours = new ArrayList<>();
        List<Double> tail = new ArrayList<>();
        String last = null;
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = System.nanoTime();
            try (ArtifactFile f = new ArtifactFile(file)) {
                PageReader.Page p = new PageReader(f, new LineIndex(file, () -> false)).end(40);
                last = p.lines().get(p.lines().size() - 1).text();
            }
            ours.add((System.nanoTime() - t0) / 1e6);
            tail.add(run("tail", "-n", "40", file.toString())[0]);
        }
        System.out.printf(Locale.ROOT, "  last page of %s (%d GB): runboard median %.2f ms (rounds %s); baseline `tail -n 40` median %.2f ms; last line \"%s\"%n",
                file.getFileName(), Files.size(file) >> 30, median(ours), fmt(ours), median(tail), last);
        // The index is what line numbers wait for: one full build, once.
        long t0 = System.nanoTime();
        LineIndex index = new LineIndex(file, () -> false);
        index.run();
        double s = (System.nanoTime() - t0) / 1e9;
        double wc = run("wc", "-l", file.toString())[0] / 1e3;
        System.out.printf(Locale.ROOT, "  line index of %s: %.2f s (%.2f GB/s, %d checkpoints, %,d lines); baseline `wc -l` %.2f s%n",
                file.getFileName(), s, Files.size(file) / s / 1e9, index.checkpoints(), index.lines(), wc);
    }

    /** Case-insensitive runs go against {@code grep -c -i -E}. */
    private static void search(Path file, String ours, boolean caseSensitive, String grepRe) throws Exception {
        List<Double> mine = new ArrayList<>();
        List<Double> grep = new ArrayList<>();
        long count = 0;
        double grepCount = 0;
        for (int r = 0; r < ROUNDS; r++) {
            long t0 = System.nanoTime();
            count = new FileSearch(new FileSearch.Query(ours, caseSensitive)).run(file, new FileSearch.Progress() {
                @Override
                public void update(long scanned, long size, long matches) {
                }

                @Override
                public boolean cancelled() {
                    return false;
                }
            }).count();
            mine.add((System.nanoTime() - t0) / 1e6);
            double[] g = caseSensitive ? run("grep", "-c", "-E", grepRe, file.toString()) : run("grep", "-c", "-i", "-E", grepRe, file.toString());
            grep.add(g[0]);
            grepCount = g[1];
        }
        double m = median(mine);
        double g = median(grep);
        List<Double> ratios = new ArrayList<>(); // per round: each pair ran back to back, so it sees the same machine load
        for (int r = 0; r < mine.size(); r++) {
            ratios.add(grep.get(r) / mine.get(r));
        }
        System.out.printf(Locale.ROOT, "  search /%s/%s: runboard median %.0f ms (%.2f GB/s, %d matches, rounds %s); `grep -c%s -E '%s'` median %.0f ms (%d lines, rounds %s); speed ratio %.2f x grep (ratio of medians); per-round ratios %s, median %.2f%n",
                ours, caseSensitive ? "" : "i", m, Files.size(file) / m / 1e6, count, fmt(mine), caseSensitive ? "" : " -i", grepRe, g, (long) grepCount, fmt(grep), g / m,
                ratios.stream().map(d -> String.format(Locale.ROOT, "%.2f", d)).toList(), median(ratios));
    }

    /** Runs a command with LC_ALL=C; returns {wall ms, first number printed}. */
    private static double[] run(String... cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("LC_ALL", "C");
        long t0 = System.nanoTime();
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        p.waitFor();
        double ms = (System.nanoTime() - t0) / 1e6;
        String s = new String(out, StandardCharsets.UTF_8).strip().split("\\s")[0];
        double n = s.matches("\\d+") ? Double.parseDouble(s) : -1;
        return new double[] {ms, n};
    }

    private static Path write(Path file, long bytes) throws Exception {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            long written = 0;
            long i = 0;
            StringBuilder sb = new StringBuilder(200);
            while (written < bytes) {
                sb.setLength(0);
                i++;
                sb.append("2026-11-29 12:").append(10 + i % 50).append(':').append(10 + i % 49).append('.').append(100 + i % 900);
                if (i % 1000 == 0) {
                    sb.append(" ERROR [worker-").append(i % 16).append("] ERROR code ").append(i % 977).append(": request failed, timeout after ").append(i % 5000).append(" ms");
                } else {
                    sb.append(" INFO  [worker-").append(i % 16).append("] step ").append(i).append(" processed batch of ").append(i % 313).append(" records in ").append(i % 97).append(" ms");
                }
                sb.append('\n');
                byte[] b = sb.toString().getBytes(StandardCharsets.US_ASCII);
                out.write(b);
                written += b.length;
            }
        }
        return file;
    }

    private static double median(List<Double> v) {
        double[] s = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String fmt(List<Double> v) {
        return v.stream().map(d -> String.format(Locale.ROOT, "%.1f", d)).toList().toString();
    }
}
