package dev.runboard.ui.common;

import com.sun.management.HotSpotDiagnosticMXBean;
import com.sun.management.VMOption;
import java.lang.management.ManagementFactory;

/**
 * The window sits open for days, so its heap should stay close to its live data. G1 keeps up to
 * 70 % of the heap free after a collection by default; at most 20 % halves the window's memory with
 * 1,000 finished sessions (docs/BENCHMARKS.md #4). The two flags are manageable, so they are set
 * here for every way the window starts ({@code ./mvnw javafx:run}, {@code java -jar}); the packaged
 * launcher passes the same on its command line. A value the user gave the JVM is left alone.
 */
public final class HeapPolicy {
    private HeapPolicy() {
    }

    public static void keepHeapTight() {
        try {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            // Min first: the JVM refuses a minimum above the maximum, and the default minimum is 40.
            setIfDefault(vm, "MinHeapFreeRatio", "10");
            setIfDefault(vm, "MaxHeapFreeRatio", "20");
        } catch (RuntimeException | LinkageError e) {
            // A runtime without jdk.management, or a JVM without these flags: keep its defaults.
        }
    }

    private static void setIfDefault(HotSpotDiagnosticMXBean vm, String flag, String value) {
        if (vm.getVMOption(flag).getOrigin() == VMOption.Origin.DEFAULT) {
            vm.setVMOption(flag, value);
        }
    }
}
