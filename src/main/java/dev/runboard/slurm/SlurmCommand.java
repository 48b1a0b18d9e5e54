package dev.runboard.slurm;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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

        /** Whether Slurm found no configuration at all (then there is no cluster to refuse anything). */
        boolean noConfiguration() {
            return err.contains(NO_CONFIGURATION);
        }

        /**
         * What Slurm said, in one line: its first error line without the program's prefix, else the output's first
         * line. Slurm with no configuration at all (no slurm.conf, no SLURM_CONF, no DNS record naming a controller)
         * says so only in its last line, after three lines about DNS: that case is said in its own words.
         */
        String said() {
            if (noConfiguration()) {
                return "Slurm finds no configuration here (" + NO_CONFIGURATION + ": no slurm.conf where Slurm looks,"
                        + " no SLURM_CONF, no DNS record naming a controller): set SLURM_CONF to your cluster's slurm.conf";
            }
            for (String line : (err + "\n" + out).split("\n")) {
                String l = line.strip();
                if (!l.isEmpty()) {
                    return l.replaceFirst("^(sbatch|squeue|scancel|scontrol): (error: |fatal: )?", "");
                }
            }
            return "no message (exit " + exit + ")";
        }
    }

    /** Slurm's own last words when it has no configuration source. */
    private static final String NO_CONFIGURATION = "Could not establish a configuration source";

    /**
     * A slurm.conf named (by SLURM_CONF or {@value #CONF_PROPERTY}) that is not there or cannot be read: said at
     * once, where Slurm's commands would retry reading it for 60 s before saying so.
     */
    static final class ConfigurationMissing extends IOException {
        ConfigurationMissing(String message) {
            super(message);
        }
    }

    /** Runs {@code argv}; an IOException when the program cannot be started (not on PATH) or does not answer. */
    Result run(List<String> argv) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        String conf = System.getProperty(CONF_PROPERTY);
        if (conf != null && !conf.isBlank()) {
            pb.environment().put("SLURM_CONF", conf);
        }
        checkNamedConfiguration(pb.environment().get("SLURM_CONF"));
        Process p = pb.start();
        // Both streams read beside the wait, so the limit holds for a command that keeps its output open.
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> text(p.getErrorStream()));
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> text(p.getInputStream()));
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
        return new Result(p.exitValue(), out.join(), err.join());
    }

    private static void checkNamedConfiguration(String conf) throws ConfigurationMissing {
        if (conf == null || conf.isEmpty()) {
            return; // Slurm's default place, or its DNS lookup: Slurm says what it finds
        }
        Path file = Path.of(conf);
        if (!Files.exists(file)) {
            throw new ConfigurationMissing("SLURM_CONF names " + conf + ", which does not exist: point it at your cluster's"
                    + " slurm.conf, or unset it for Slurm's default");
        }
        boolean folder = Files.isDirectory(file);
        if (folder || !Files.isReadable(file)) {
            throw new ConfigurationMissing("SLURM_CONF names " + conf + ", which cannot be read" + (folder ? " (a folder)" : "")
                    + ": point it at your cluster's slurm.conf");
        }
    }

    private static String text(InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
