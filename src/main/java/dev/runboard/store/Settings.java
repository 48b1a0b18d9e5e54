package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import java.util.List;

/** What a user can set, as stored in {@code settings.json}. Missing fields take the defaults. */
public record Settings(
        @JsonProperty("poll_ms") int pollMillis,
        @JsonProperty("default_grace_ms") long defaultGraceMillis,
        @JsonProperty("preview_bytes") int previewBytes,
        @JsonProperty("theme") String theme,
        @JsonProperty("keep_finished") int keepFinished,
        @JsonProperty("keep_artifact_bytes") long keepArtifactBytes,
        @JsonProperty("notifications") boolean notifications,
        @JsonProperty("default_rules") List<OutputRule> defaultRules) {

    public static final Settings DEFAULTS = new Settings(200, 2000, 64 * 1024, "light", 1000, 5_000_000_000L, true, List.of());

    public Settings {
        pollMillis = pollMillis <= 0 ? 200 : Math.max(50, pollMillis);
        // Hand-edited values are brought into SessionSpec's ranges, so every session started with them can start.
        defaultGraceMillis = Math.min(Math.max(0, defaultGraceMillis), SessionSpec.MAX_GRACE.toMillis());
        previewBytes = previewBytes <= 0 ? SessionSpec.DEFAULT_PREVIEW_BYTES
                : Math.min(Math.max(SessionSpec.MIN_PREVIEW_BYTES, previewBytes), SessionSpec.MAX_PREVIEW_BYTES);
        theme = "dark".equals(theme) ? "dark" : "light";
        keepFinished = keepFinished <= 0 ? 1000 : keepFinished;
        keepArtifactBytes = keepArtifactBytes <= 0 ? 5_000_000_000L : keepArtifactBytes;
        // Output rules every new session from the dialog starts with (highlight, fail, notify).
        defaultRules = defaultRules == null ? List.of() : List.copyOf(defaultRules);
    }

    public Settings withTheme(String theme) {
        return new Settings(pollMillis, defaultGraceMillis, previewBytes, theme, keepFinished, keepArtifactBytes, notifications, defaultRules);
    }

    public Settings withDefaultRules(List<OutputRule> rules) {
        return new Settings(pollMillis, defaultGraceMillis, previewBytes, theme, keepFinished, keepArtifactBytes, notifications, rules);
    }

    public Settings withRetention(int keepFinished, long keepArtifactBytes) {
        return new Settings(pollMillis, defaultGraceMillis, previewBytes, theme, keepFinished, keepArtifactBytes, notifications, defaultRules);
    }
}
