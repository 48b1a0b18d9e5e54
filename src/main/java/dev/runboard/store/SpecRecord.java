package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.WatchSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A session spec as stored: plain fields, durations in milliseconds. */
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
        @JsonProperty("nice") Integer nice) {

    public static SpecRecord of(SessionSpec s) {
        return new SpecRecord(s.shellCommand(), s.argv(), s.shell() == null ? null : s.shell().toString(),
                s.cwd().toString(), s.env(), s.timeout() == null ? null : s.timeout().toMillis(),
                s.grace().toMillis(), s.previewBytes(), s.pty() ? Boolean.TRUE : null,
                s.watch().isEmpty() ? null : s.watch(), s.nice());
    }

    public SessionSpec toSpec() {
        SessionSpec.Builder b = argv != null ? SessionSpec.argv(argv) : SessionSpec.shell(command);
        if (shell != null) {
            b.shell(Path.of(shell));
        }
        return b.cwd(Path.of(cwd))
                .env(env == null ? Map.of() : env)
                .timeout(timeoutMillis == null ? null : Duration.ofMillis(timeoutMillis))
                .grace(Duration.ofMillis(graceMillis))
                .previewBytes(previewBytes)
                .pty(Boolean.TRUE.equals(pty))
                .watch(watch)
                .nice(nice == null ? 0 : nice) // recorded before runboard set priorities: they ran at 0
                .build();
    }
}
