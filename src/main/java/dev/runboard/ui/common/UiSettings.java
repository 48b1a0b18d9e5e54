package dev.runboard.ui.common;

import java.time.Duration;
import java.util.Map;

/**
 * The window's own settings: poll period, desktop notifications, demo mode (what a new session
 * starts with is read by each New session form, launch.SessionDefaults). Each from the saved
 * settings, overridden by its system property ({@code runboard.pollMillis}, {@code runboard.notify},
 * {@code runboard.demo}) or the environment ({@code RUNBOARD_POLL_MS}, {@code RUNBOARD_NOTIFY},
 * {@code RUNBOARD_DEMO}).
 */
public record UiSettings(Duration pollPeriod, boolean desktopNotifications, boolean demo) {

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
                demo != null && (demo.equals("1") || demo.equalsIgnoreCase("true")));
    }

    public UiSettings withPollPeriod(Duration period) {
        return new UiSettings(period, desktopNotifications, demo);
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
