package dev.runboard.ui.launch;

import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.store.Settings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What a fresh New session form starts with, from the user's settings: the kill grace, the
 * preview bound, the default output rules, the priority ({@code default_nice}; 0 unticks
 * Background), the timeout ({@code default_timeout_ms}; null leaves the field empty), the extra
 * ssh config file whose hosts the host field also offers ({@code ssh_config}; null for none) and the
 * output a session keeps when its Keep output field is empty ({@code default_max_output}; null: all).
 */
public record SessionDefaults(Duration grace, int previewBytes, List<OutputRule> rules, int nice, Duration timeout,
        Path sshConfig, Long maxOutput) {
    /** The engine's own defaults, for a window without settings. */
    public static final SessionDefaults ENGINE = new SessionDefaults(SessionSpec.DEFAULT_GRACE, SessionSpec.DEFAULT_PREVIEW_BYTES,
            List.of(), SessionSpec.BACKGROUND_NICE, null, null, null);

    public SessionDefaults {
        rules = rules == null ? List.of() : List.copyOf(rules);
    }

    public static SessionDefaults of(Settings s) {
        return new SessionDefaults(Duration.ofMillis(s.defaultGraceMillis()), s.previewBytes(), s.defaultRules(), s.defaultNice(),
                s.defaultTimeoutMillis() == null ? null : Duration.ofMillis(s.defaultTimeoutMillis()),
                s.sshConfig() == null ? null : Path.of(s.sshConfig()), s.defaultMaxOutput());
    }
}
