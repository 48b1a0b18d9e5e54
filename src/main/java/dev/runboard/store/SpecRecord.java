package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.WatchSpec;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A session spec as stored: plain fields, durations in milliseconds (the watch's durations as
 * seconds with a fraction, as Jackson writes them).
 */
public record SpecRecord(
        @JsonProperty("command") String command,
        @JsonProperty("argv") List<String> argv,
        @JsonProperty("shell") String shell,
        @JsonProperty("cwd") String cwd,
        @JsonProperty("env") Map<String, String> env,
        @JsonProperty("timeout_ms") Long timeoutMillis,
        @JsonProperty("grace_ms") long graceMillis,
        @JsonProperty("preview_bytes") int previewBytes,
        @JsonProperty("pty") Boolean pty,
        @JsonProperty("watch") WatchSpec watch,
        @JsonProperty("nice") Integer nice,
        @JsonProperty("host") String host,
        @JsonProperty("max_output_bytes") Long maxOutputBytes,
        @JsonProperty("secret_env") List<String> secretEnv,
        @JsonProperty("slurm") dev.runboard.session.SlurmTarget slurm) {

    /** A record without Slurm (as every record before issue #44). */
    public SpecRecord(String command, List<String> argv, String shell, String cwd, Map<String, String> env, Long timeoutMillis,
                      long graceMillis, int previewBytes, Boolean pty, WatchSpec watch, Integer nice, String host,
                      Long maxOutputBytes, List<String> secretEnv) {
        this(command, argv, shell, cwd, env, timeoutMillis, graceMillis, previewBytes, pty, watch, nice, host, maxOutputBytes,
                secretEnv, null);
    }

    /** A record without secret names (written before runboard marked them: the default patterns apply). */
    public SpecRecord(String command, List<String> argv, String shell, String cwd, Map<String, String> env, Long timeoutMillis,
                      long graceMillis, int previewBytes, Boolean pty, WatchSpec watch, Integer nice, String host,
                      Long maxOutputBytes) {
        this(command, argv, shell, cwd, env, timeoutMillis, graceMillis, previewBytes, pty, watch, nice, host, maxOutputBytes, null, null);
    }

    /** A spec without max_output (as records before it were written). */
    public SpecRecord(String command, List<String> argv, String shell, String cwd, Map<String, String> env, Long timeoutMillis,
                      long graceMillis, int previewBytes, Boolean pty, WatchSpec watch, Integer nice, String host) {
        this(command, argv, shell, cwd, env, timeoutMillis, graceMillis, previewBytes, pty, watch, nice, host, null, null, null);
    }

    public static SpecRecord of(SessionSpec s) {
        return new SpecRecord(s.shellCommand(), s.argv(), s.shell() == null ? null : s.shell().toString(),
                dev.runboard.session.RawPaths.text(s.cwd()), s.env(), s.timeout() == null ? null : s.timeout().toMillis(),
                s.grace().toMillis(), s.previewBytes(), s.pty() ? Boolean.TRUE : null,
                s.watch().isEmpty() ? null : s.watch(), s.nice(), s.host(), s.maxOutputBytes(),
                s.secretEnv() == null ? null : List.copyOf(s.secretEnv()), s.slurm());
    }

    /**
     * Throws {@link CorruptRecordException} naming the first field that cannot be a spec this
     * runboard wrote, so that {@link #toSpec()} and everything that shows or re-runs the spec can
     * rely on it. The ranges are {@link SessionSpec#validate()}'s; the file system is not consulted
     * (a record's cwd may have been deleted since).
     */
    public SpecRecord check() throws CorruptRecordException {
        if ((command == null) == (argv == null)) {
            throw new CorruptRecordException("spec needs exactly one of command and argv");
        }
        noNul(command, "spec.command");
        if (argv != null) {
            if (argv.isEmpty()) {
                throw new CorruptRecordException("spec.argv is empty");
            }
            for (String a : argv) {
                if (a == null) {
                    throw new CorruptRecordException("spec.argv contains null");
                }
                noNul(a, "spec.argv");
            }
        }
        if (shell != null) {
            path(shell, "spec.shell");
        }
        if (cwd == null) {
            throw new CorruptRecordException("spec.cwd is missing");
        }
        if (!path(cwd, "spec.cwd").isAbsolute()) {
            throw new CorruptRecordException("spec.cwd is not an absolute path");
        }
        if (secretEnv != null && secretEnv.stream().anyMatch(java.util.Objects::isNull)) {
            throw new CorruptRecordException("spec.secret_env contains null");
        }
        if (env != null) {
            for (Map.Entry<String, String> e : env.entrySet()) {
                if (e.getValue() == null) {
                    throw new CorruptRecordException("spec.env." + e.getKey() + " is null");
                }
            }
        }
        try {
            SessionSpec.checkHost(host);
            if (slurm != null) {
                slurm.checkWellFormed(); // an older record with an option runboard now keeps to itself still loads
            }
            SessionSpec.checkTimeout(timeoutMillis == null ? null : Duration.ofMillis(timeoutMillis), "spec.timeout_ms");
            SessionSpec.checkGrace(Duration.ofMillis(graceMillis), "spec.grace_ms");
            SessionSpec.checkPreviewBytes(previewBytes, "spec.preview_bytes");
            if (nice != null) {
                SessionSpec.checkNice(nice, "spec.nice");
            }
            SessionSpec.checkMaxOutput(maxOutputBytes, "spec.max_output_bytes");
            if (watch != null) {
                watch.validate();
            }
        } catch (IllegalArgumentException e) {
            throw new CorruptRecordException(e.getMessage());
        }
        return this;
    }

    /**
     * This spec with every limit that runboard 0.1 accepted beyond today's ranges brought to the
     * nearest end of the range (a 100-year timeout becomes 365 days, a 2 GiB preview bound 16 MiB,
     * a 1 KiB RSS guard 1 MiB): such a record is old, not corrupt, and still loads.
     */
    SpecRecord clampedToRanges() {
        Long timeout = timeoutMillis == null ? null : Math.min(timeoutMillis, SessionSpec.MAX_TIMEOUT.toMillis());
        long grace = Math.min(graceMillis, SessionSpec.MAX_GRACE.toMillis());
        int preview = Math.min(previewBytes, SessionSpec.MAX_PREVIEW_BYTES);
        WatchSpec w = watch;
        if (w != null) {
            w = new WatchSpec(w.rules(), atMost(w.hangAfter()), w.hangAction(),
                    w.maxRssBytes() == null ? null : Math.max(WatchSpec.MIN_RSS_BYTES, Math.min(w.maxRssBytes(), WatchSpec.MAX_RSS_BYTES)),
                    w.maxCpuPercent() == null ? null : Math.min(w.maxCpuPercent(), WatchSpec.MAX_CPU_PERCENT), atMost(w.cpuFor()));
        }
        return new SpecRecord(command, argv, shell, cwd, env, timeout, grace, preview, pty, w, nice, host, maxOutputBytes, secretEnv, slurm);
    }

    private static Duration atMost(Duration d) {
        return d != null && d.compareTo(SessionSpec.MAX_TIMEOUT) > 0 ? SessionSpec.MAX_TIMEOUT : d;
    }

    private static void noNul(String value, String field) throws CorruptRecordException {
        if (value != null && value.indexOf('\0') >= 0) {
            throw new CorruptRecordException(field + " contains a NUL character");
        }
    }

    static Path path(String value, String field) throws CorruptRecordException {
        try {
            return Path.of(value);
        } catch (InvalidPathException e) {
            throw new CorruptRecordException(field + " is not a path (" + e.getReason() + ")");
        }
    }

    /** The spec; call on a {@link #check() checked} record. */
    public SessionSpec toSpec() {
        SessionSpec.Builder b = argv != null ? SessionSpec.argv(argv) : SessionSpec.shell(command);
        if (shell != null) {
            b.shell(Path.of(shell));
        }
        return b.cwd(dev.runboard.session.RawPaths.path(cwd))
                .env(env == null ? Map.of() : env)
                .timeout(timeoutMillis == null ? null : Duration.ofMillis(timeoutMillis))
                .grace(Duration.ofMillis(graceMillis))
                .previewBytes(previewBytes)
                .pty(Boolean.TRUE.equals(pty))
                .watch(watch)
                .nice(nice == null ? 0 : nice) // recorded before runboard set priorities: they ran at 0
                .host(host)
                .maxOutputBytes(maxOutputBytes)
                .secretEnv(secretEnv == null ? null : new java.util.TreeSet<>(secretEnv))
                .slurm(slurm)
                .build();
    }
}
