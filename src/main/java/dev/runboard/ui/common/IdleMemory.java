package dev.runboard.ui.common;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import javafx.animation.PauseTransition;
import javafx.beans.value.ObservableIntegerValue;

/**
 * Gives the memory a burst of work used back to the system once the window has gone quiet: when no
 * session has run for {@link #QUIET} after some did, one full collection (the window's serial
 * collector then shrinks the heap to its live data plus the free ratio {@link HeapPolicy} sets;
 * without it, the old generation keeps what streaming promoted until some later collection) and a
 * trim of the C heap (glibc keeps what the toolkit's and the JDK's native code freed). Both run on a
 * worker, once per quiet spell. A window left open all day after a morning of builds otherwise held
 * the peak of that morning (docs/BENCHMARKS.md §19).
 */
public final class IdleMemory {
    /** How long nothing runs before the memory is given back: past the burst, short of a person's next command. */
    static final Duration QUIET = Duration.ofSeconds(Long.getLong("runboard.idleMemory.quietSeconds", 20));

    private final PauseTransition quiet = new PauseTransition(javafx.util.Duration.millis(QUIET.toMillis()));
    private boolean worked;

    private IdleMemory(ObservableIntegerValue running, UiTasks tasks) {
        quiet.setOnFinished(e -> {
            worked = false;
            tasks.background(IdleMemory::giveBack);
        });
        running.addListener((o, was, now) -> {
            if (now.intValue() > 0) {
                worked = true;
                quiet.stop();
            } else if (worked) {
                quiet.playFromStart();
            }
        });
    }

    /** Watches {@code running} (the count of running sessions) on the FX thread for as long as the window lives. */
    public static void install(ObservableIntegerValue running, UiTasks tasks) {
        new IdleMemory(running, tasks);
    }

    /** One full collection, then the C heap trimmed where the JVM can (JDK 17.0.9 and later); what each gave is not needed. */
    static Void giveBack() {
        System.gc();
        try {
            ManagementFactory.getPlatformMBeanServer().invoke(new javax.management.ObjectName("com.sun.management:type=DiagnosticCommand"),
                    "systemTrimNativeHeap", new Object[] {new String[0]}, new String[] {String[].class.getName()});
        } catch (javax.management.JMException | RuntimeException | LinkageError e) {
            // an older JVM, or one without jdk.management: the heap's part is given back all the same
        }
        return null;
    }
}
