package dev.runboard.ui.common;

import dev.runboard.session.OutputRule;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The window's settings until a settings store exists: poll period, desktop notifications, demo
 * mode. Read from system properties ({@code runboard.pollMillis}, {@code runboard.notify},
 * {@code runboard.demo}) or the environment ({@code RUNBOARD_POLL_MS}, {@code RUNBOARD_NOTIFY},
 * {@code RUNBOARD_DEMO}).
 */
public record UiSettings(Duration pollPeriod, boolean desktopNotifications, boolean demo, Duration defaultGrace,
        int previewBytes, List<OutputRule> defaultRules) {

    public UiSettings {
        defaultRules = defaultRules == null ? List.of() : List.copyOf(defaultRules);
    }

    /** With the engine's defaults for a new session's grace and preview bound. */
    public UiSettings(Duration pollPeriod, boolean desktopNotifications, boolean demo) {
        this(pollPeriod, desktopNotifications, demo, dev.runboard.session.SessionSpec.DEFAULT_GRACE,
                dev.runboard.session.SessionSpec.DEFAULT_PREVIEW_BYTES, List.of());
    }

    public static final Duration DEFAULT_POLL = Duration.ofMillis(dev.runboard.store.Settings.DEFAULT_POLL_MS);

    public static UiSettings defaults() {
        return new UiSettings(DEFAULT_POLL, true, false);
    }

    public static UiSettings fromEnvironment() {
        return from(System.getenv(), dev.runboard.store.Settings.DEFAULTS);
    }

    /** The saved settings, each overridden by its system property or environment variable when set. */
    public static UiSettings fromEnvironment(dev.runboard.store.Settings saved) {
        return from(System.getenv(), saved);
    }

    static UiSettings from(Map<String, String> env) {
        return from(env, dev.runboard.store.Settings.DEFAULTS);
    }

    static UiSettings from(Map<String, String> env, dev.runboard.store.Settings saved) {
        long poll = parseLong(value("runboard.pollMillis", env.get("RUNBOARD_POLL_MS")), saved.pollMillis());
        String notifyChoice = value("runboard.notify", env.get("RUNBOARD_NOTIFY"));
        boolean notify = notifyChoice == null ? saved.notifications() : !"false".equalsIgnoreCase(notifyChoice);
        String demo = value("runboard.demo", env.get("RUNBOARD_DEMO"));
        return new UiSettings(Duration.ofMillis(Math.max(20, poll)), notify,
                demo != null && (demo.equals("1") || demo.equalsIgnoreCase("true")), Duration.ofMillis(saved.defaultGraceMillis()), saved.previewBytes(),
                saved.defaultRules());
    }

    public UiSettings withPollPeriod(Duration period) {
        return new UiSettings(period, desktopNotifications, demo, defaultGrace, previewBytes, defaultRules);
    }

    private static String value(String property, String env) {
        return System.getProperty(property, env);
    }

    private static long parseLong(String s, long fallback) {
        try {
            return s == null ? fallback : Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return fallback;
        }
    }
}
