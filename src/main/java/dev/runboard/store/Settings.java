package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import java.util.List;

/**
 * What a user can set, as stored in {@code settings.json}. Missing fields take the defaults. The
 * defaults live here and nowhere else: the window, the supervisor's retention and the CLI read
 * them from {@link #DEFAULTS}; {@link SettingKeys} says what each key allows.
 */
public record Settings(
        @JsonProperty("poll_ms") int pollMillis,
        @JsonProperty("default_grace_ms") long defaultGraceMillis,
        @JsonProperty("preview_bytes") int previewBytes,
        @JsonProperty("theme") String theme,
        @JsonProperty("keep_finished") int keepFinished,
        @JsonProperty("keep_artifact_bytes") long keepArtifactBytes,
        @JsonProperty("notifications") boolean notifications,
        @JsonProperty("default_rules") @JsonSerialize(contentUsing = SettingsRuleWriter.class) List<OutputRule> defaultRules,
        @JsonProperty("default_nice") int defaultNice,
        @JsonProperty("default_timeout_ms") Long defaultTimeoutMillis,
        @JsonProperty("ssh_config") String sshConfig,
        @JsonProperty("default_max_output") Long defaultMaxOutput,
        @JsonProperty("secret_env_patterns") List<String> secretEnvPatterns) {

    public static final int DEFAULT_POLL_MS = 200;
    public static final int DEFAULT_KEEP_FINISHED = 1000;
    /** 5 GiB: sizes are binary everywhere (the Contract), so the default reads back as 5G. */
    public static final long DEFAULT_KEEP_ARTIFACT_BYTES = 5L << 30;

    public static final Settings DEFAULTS = new Settings(DEFAULT_POLL_MS, SessionSpec.DEFAULT_GRACE.toMillis(),
            SessionSpec.DEFAULT_PREVIEW_BYTES, "light", DEFAULT_KEEP_FINISHED, DEFAULT_KEEP_ARTIFACT_BYTES, true, List.of(),
            SessionSpec.BACKGROUND_NICE, null, null, null, dev.runboard.session.SecretEnv.DEFAULT_PATTERNS);

    /** Settings without {@code secret_env_patterns}: the default patterns. */
    public Settings(int pollMillis, long defaultGraceMillis, int previewBytes, String theme, int keepFinished, long keepArtifactBytes,
                    boolean notifications, List<OutputRule> defaultRules, int defaultNice, Long defaultTimeoutMillis, String sshConfig,
                    Long defaultMaxOutput) {
        this(pollMillis, defaultGraceMillis, previewBytes, theme, keepFinished, keepArtifactBytes, notifications, defaultRules,
                defaultNice, defaultTimeoutMillis, sshConfig, defaultMaxOutput, null);
    }

    public Settings {
        pollMillis = pollMillis <= 0 ? DEFAULT_POLL_MS : Math.max(50, pollMillis);
        // Hand-edited values are brought into SessionSpec's ranges, so every session started with them can start.
        defaultGraceMillis = Math.min(Math.max(0, defaultGraceMillis), SessionSpec.MAX_GRACE.toMillis());
        previewBytes = previewBytes <= 0 ? SessionSpec.DEFAULT_PREVIEW_BYTES
                : Math.min(Math.max(SessionSpec.MIN_PREVIEW_BYTES, previewBytes), SessionSpec.MAX_PREVIEW_BYTES);
        theme = "dark".equals(theme) ? "dark" : "light";
        keepFinished = keepFinished <= 0 ? DEFAULT_KEEP_FINISHED : keepFinished;
        keepArtifactBytes = keepArtifactBytes <= 0 ? DEFAULT_KEEP_ARTIFACT_BYTES : keepArtifactBytes;
        // Output rules every new session from the dialog starts with (highlight, fail, notify).
        defaultRules = defaultRules == null ? List.of() : List.copyOf(defaultRules);
        defaultNice = Math.min(Math.max(0, defaultNice), SessionSpec.MAX_NICE);
        defaultTimeoutMillis = defaultTimeoutMillis == null || defaultTimeoutMillis <= 0 ? null : defaultTimeoutMillis;
        // An extra OpenSSH config file for remote sessions, read beside the user's own (SettingKeys checks it).
        sshConfig = sshConfig == null || sshConfig.isBlank() ? null : sshConfig.strip();
        // The bound of a running session's output for sessions the supervisor starts without one; null: all of it.
        defaultMaxOutput = defaultMaxOutput == null || defaultMaxOutput <= 0 ? null
                : Math.max(defaultMaxOutput, SessionSpec.MIN_MAX_OUTPUT);
        // Which environment names are secrets (issue #45); a hand-edited bad pattern is dropped, not fatal.
        secretEnvPatterns = secretEnvPatterns == null ? dev.runboard.session.SecretEnv.DEFAULT_PATTERNS
                : secretEnvPatterns.stream().filter(p -> p != null && !p.isBlank() && p.chars().noneMatch(Character::isISOControl))
                        .map(String::strip).toList();
    }

    /** The secret patterns as the engine applies them. */
    public dev.runboard.session.SecretEnv secrets() {
        return new dev.runboard.session.SecretEnv(secretEnvPatterns);
    }

    public Settings withTheme(String theme) {
        return new Settings(pollMillis, defaultGraceMillis, previewBytes, theme, keepFinished, keepArtifactBytes, notifications,
                defaultRules, defaultNice, defaultTimeoutMillis, sshConfig, defaultMaxOutput, secretEnvPatterns);
    }

    public Settings withDefaultRules(List<OutputRule> rules) {
        return new Settings(pollMillis, defaultGraceMillis, previewBytes, theme, keepFinished, keepArtifactBytes, notifications,
                rules, defaultNice, defaultTimeoutMillis, sshConfig, defaultMaxOutput, secretEnvPatterns);
    }

    public Settings withRetention(int keepFinished, long keepArtifactBytes) {
        return new Settings(pollMillis, defaultGraceMillis, previewBytes, theme, keepFinished, keepArtifactBytes, notifications,
                defaultRules, defaultNice, defaultTimeoutMillis, sshConfig, defaultMaxOutput, secretEnvPatterns);
    }

    public Settings withSessionDefaults(int nice, long graceMillis, Long timeoutMillis) {
        return new Settings(pollMillis, graceMillis, previewBytes, theme, keepFinished, keepArtifactBytes, notifications,
                defaultRules, nice, timeoutMillis, sshConfig, defaultMaxOutput, secretEnvPatterns);
    }
}
