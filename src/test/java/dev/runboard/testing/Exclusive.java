package dev.runboard.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class that must not run beside another holding the same resource, in any Surefire fork:
 * a fixed port, a shared display with its window manager, a machine-wide service. JUnit's
 * {@code @ResourceLock} holds within one JVM only; this holds a file lock for the whole class
 * ({@link CrossForkLock#hold} holds one for a single step).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@ExtendWith(CrossForkLock.class)
public @interface Exclusive {
    /** The resources held, each a lock file's name. */
    String[] value();

    /** Installing packages (apt allows one at a time): sshd and the second user for the remote tests. */
    String PACKAGES = "packages";
}
