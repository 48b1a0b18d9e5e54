package dev.runboard.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a test (or class) whose loops are sized by {@link TestScale}: it runs in the default suite at
 * the smaller size, and again at full size in the {@code stress} profile, which runs only these.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("stress")
public @interface Stress {
}
