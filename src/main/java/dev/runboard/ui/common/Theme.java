package dev.runboard.ui.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import javafx.application.Application;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.Scene;

/**
 * Light or dark: AtlantaFX Primer as the user-agent stylesheet plus runboard's own stylesheet on
 * every registered scene; the root carries {@code theme-dark} so our colours (ANSI palette) follow.
 * The choice comes from {@code -Drunboard.theme} or {@code $RUNBOARD_THEME} until settings persist.
 */
public final class Theme {
    public static final String STYLESHEET = "/dev/runboard/ui/runboard.css";
    private static final String DARK_CLASS = "theme-dark";
    /*
     * AtlantaFX 2.1.0's classes are compiled for Java 21, so on our Java 17 runtime we load its
     * theme stylesheets as plain resources instead of through PrimerLight/PrimerDark.
     */
    private static final String PRIMER_LIGHT = "/atlantafx/base/theme/primer-light.css";
    private static final String PRIMER_DARK = "/atlantafx/base/theme/primer-dark.css";
    private final BooleanProperty dark = new SimpleBooleanProperty(this, "dark");
    private final List<Scene> scenes = new ArrayList<>();

    public Theme(boolean dark) {
        this.dark.set(dark);
        this.dark.addListener((o, was, now) -> apply());
    }

    /** Dark when {@code runboard.theme} (system property) or {@code RUNBOARD_THEME} says "dark". */
    public static Theme fromEnvironment() {
        return fromEnvironment("light");
    }

    /** As {@link #fromEnvironment()}, falling back to the saved theme when neither is set. */
    public static Theme fromEnvironment(String saved) {
        String choice = System.getProperty("runboard.theme", Objects.requireNonNullElse(System.getenv("RUNBOARD_THEME"), saved));
        return new Theme(choice.trim().toLowerCase(Locale.ROOT).equals("dark"));
    }

    /** Gives a scene runboard's stylesheet and keeps it in step with light/dark. */
    public void register(Scene scene) {
        String css = resource(STYLESHEET);
        if (!scene.getStylesheets().contains(css)) {
            scene.getStylesheets().add(css);
        }
        scenes.removeIf(s -> s.getWindow() != null && !s.getWindow().isShowing() && s != scene);
        scenes.add(scene);
        apply();
    }

    /**
     * Sets the theme's user-agent stylesheet now; call it before the first control is made. A
     * control's class, when first loaded with no user-agent stylesheet set, has JavaFX load its own
     * Modena, which {@link #register} would then replace unused.
     */
    public void useBeforeControls() {
        Application.setUserAgentStylesheet(resource(dark.get() ? PRIMER_DARK : PRIMER_LIGHT));
    }

    private void apply() {
        useBeforeControls();
        for (Scene s : scenes) {
            if (s.getRoot() != null) {
                s.getRoot().getStyleClass().remove(DARK_CLASS);
                if (dark.get()) {
                    s.getRoot().getStyleClass().add(DARK_CLASS);
                }
            }
        }
    }

    private static String resource(String path) {
        return Objects.requireNonNull(Theme.class.getResource(path), path).toExternalForm();
    }

    public BooleanProperty darkProperty() {
        return dark;
    }
}
