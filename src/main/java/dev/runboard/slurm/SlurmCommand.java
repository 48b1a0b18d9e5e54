package dev.runboard.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs Slurm's client commands ({@code sbatch}, {@code squeue}, {@code scancel}) as a person would
 * at the submit host's shell: found on PATH, reading the cluster from Slurm's own configuration
 * ({@code SLURM_CONF}, else its default). {@value #CONF_PROPERTY} names a {@code slurm.conf} instead,
 * for tests that run the CLI in-process (they cannot set a variable); the supervisor inherits it.
 */
final class SlurmCommand {
    /** A slurm.conf for every Slurm command this runboard runs (tests: a private one-node cluster). */
    static final String CONF_PROPERTY = "runboard.slurm.conf";
    private static final long CALL_LIMIT_SECONDS = 60;

    /** What one call gave: its exit code, stdout and stderr. */
    record Result(int exit, String out, String err) {
        boolean ok() {
            return exit == 0;
        }

        /** What Slurm said, in one line: its first error line without the program's prefix, else the output's first line. */
        String said() {
            for (String line : (err + "\n" + out).split("\n")) {
                String l = line.strip();
                if (!l.isEmpty()) {
                    return l.replaceFirst("^(sbatch|squeue|scancel|scontrol): (error: |fatal: )?", "");
                }
            }
            return "no message (exit " + exit + ")";
        }
    }

    /** Runs {@code argv}; an IOException when the program cannot be started (not on PATH) or does not answer. */
    Result run(List<String> argv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        String conf = System.getProperty(CONF_PROPERTY);
        if (conf != null && !conf.isBlank()) {
            pb.environment().put("SLURM_CONF", conf);
        }
        Process p = pb.start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> text(p.getErrorStream()));
        String out = text(p.getInputStream());
        try {
            if (!p.waitFor(CALL_LIMIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(argv.get(0) + " did not answer within " + CALL_LIMIT_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while " + argv.get(0) + " ran", e);
        }
        return new Result(p.exitValue(), out, err.join());
    }

    private static String text(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
