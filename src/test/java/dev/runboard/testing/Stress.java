package dev.runboard.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Marks a scale, race or fuzz test (or class), whose loops are sized by {@link TestScale}: it runs
 * only in the {@code stress} profile, at full size ({@code ./mvnw test -Pstress}, which .ci/run runs
 * after the fast suite). The fast suite leaves them out: they took 65 of its 590 CPU seconds, on
 * two cores whose every second the suite already fills.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag("stress")
public @interface Stress {
}
