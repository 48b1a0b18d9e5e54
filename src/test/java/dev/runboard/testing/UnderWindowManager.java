package dev.runboard.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test that needs a real X display with a window manager (Xvfb and openbox) and the real
 * glass toolkit, not headless Monocle: dialog sizing and maximizing only go wrong there. The default
 * suite leaves these out; {@code .ci/window-manager} runs them (profile {@code wm}) at three screen sizes.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("window-manager")
public @interface UnderWindowManager {
}
