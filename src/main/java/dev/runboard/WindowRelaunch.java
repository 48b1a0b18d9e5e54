package dev.runboard;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Opens the window from a bare {@code java -jar runboard.jar} in a second JVM that has the window's options,
 * the ones bin/runboard gives it: C1 only, the serial collector with a 32 MB young generation, and a
 * class-data archive of the window's classes (WindowArchive). A jar cannot give its own JVM options on JDK
 * 17; with the JVM's defaults the window's first frame came 0.4-0.5 s later on two cores, where C2 compiled
 * for the cores the window needed, and without the archive 0.3-0.6 s later again (docs/BENCHMARKS.md §14). The
 * first JVM starts the second, waits for it and exits with its status; a TERM or INT to it ends the window
 * too. It costs a JVM's start (40-60 ms) and ~40 MB while the window is open.
 *
 * <p>Only a bare {@code java -jar}: a JVM given any option of its own (on the command line or through
 * {@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS} or {@code _JAVA_OPTIONS}) is run as it was asked, and
 * {@code RUNBOARD_RELAUNCH=off} keeps every window in one JVM. bin/runboard, the packaged launcher and
 * {@code ./mvnw javafx:run} give their JVM options themselves, so they never come here twice.
 */
final class WindowRelaunch {
    /** The system property the second JVM gets: the first JVM's pid, so its start-up report counts from the start the user saw. */
    static final String RELAUNCHED_FROM = "runboard.relaunchedFrom";

    private static final List<String> WINDOW_OPTIONS = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmn32m");

    private static final List<String> OPTION_VARIABLES = List.of("JAVA_TOOL_OPTIONS", "JDK_JAVA_OPTIONS", "_JAVA_OPTIONS");

    private WindowRelaunch() {
    }

    /**
     * Whether this JVM was started as a bare {@code java -jar JAR ARGS}: no JVM option on its command line or
     * in the variables the JVM reads options from, and the relaunch not turned off.
     *
     * @param jvmArguments this process's arguments after the java binary
     */
    static boolean bareJar(List<String> jvmArguments, Map<String, String> environment) {
        return jvmArguments.size() >= 2 && jvmArguments.get(0).equals("-jar")
                && !"off".equals(environment.get("RUNBOARD_RELAUNCH"))
                && OPTION_VARIABLES.stream().allMatch(name -> environment.getOrDefault(name, "").isBlank());
    }

    /**
     * The window's JVM: this JVM's java with the window's options, then {@code extraOptions} (the class-data
     * archive's, huge pages), then {@code -jar} with the jar's absolute path (the archive fits one class path)
     * and the window's arguments.
     */
    static List<String> command(String javaHome, List<String> extraOptions, long pid, Path jar, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(javaHome, "bin", "java").toString());
        command.addAll(WINDOW_OPTIONS);
        command.addAll(extraOptions);
        command.add("-D" + RELAUNCHED_FROM + "=" + pid);
        command.add("-jar");
        command.add(jar.toString());
        command.addAll(arguments);
        return command;
    }

    /**
     * Runs the window in a second JVM and exits with its status, when this JVM is a bare {@code java -jar};
     * returns (to open the window here) otherwise, or when the second JVM cannot be started.
     */
    static void runIfBareJar() {
        if (System.getProperty(RELAUNCHED_FROM) != null) {
            return; // the second JVM (its options come before -jar, so this is only a safeguard against a loop)
        }
        List<String> arguments = List.of(ProcessHandle.current().info().arguments().orElse(new String[0]));
        Map<String, String> environment = System.getenv();
        if (!bareJar(arguments, environment)) {
            return;
        }
        long pid = ProcessHandle.current().pid();
        String javaHome = System.getProperty("java.home");
        Path jar = Path.of(arguments.get(1)).toAbsolutePath().normalize();
        Optional<WindowArchive> archive = "off".equals(environment.get("RUNBOARD_CDS")) ? Optional.empty()
                : WindowArchive.forJar(jar, environment, javaHome, System.getProperty("java.vm.version"));
        List<String> extraOptions = new ArrayList<>();
        boolean canDisplay = Display.available(environment, System.getProperty("glass.platform"), System.getProperty("os.name"));
        archive.ifPresent(a -> extraOptions.addAll(a.options(pid, canDisplay)));
        if (hugePagesOnRequest()) {
            // As the launchers do: the young collections that copy the history's rows pause the window less.
            extraOptions.add("-XX:+UseTransparentHugePages");
        }
        int status;
        try {
            status = runAndWait(command(javaHome, extraOptions, pid, jar, arguments.subList(2, arguments.size())),
                    () -> archive.ifPresent(a -> a.settle(pid)));
        } catch (IOException | RuntimeException e) {
            System.err.println("runboard: could not start the window's JVM (" + e.getMessage() + "); opening it here");
            return;
        }
        System.exit(status);
    }

    /**
     * Starts the command with this process's stdin, stdout and stderr and waits for it, then runs
     * {@code afterEnd}. Ends it if this JVM is told to stop first: a TERM or INT (Ctrl+C) runs the shutdown
     * hooks, so the window closes as it would on its own rather than stay behind its parent. (A KILL runs
     * none: the window then stays open.)
     */
    static int runAndWait(List<String> command, Runnable afterEnd) throws IOException {
        // The hook is in place before the window's JVM exists, and waits for its start to finish: the child shows
        // in /proc at its fork, before ProcessBuilder.start returns, and a TERM in between must still end it.
        CompletableFuture<Process> started = new CompletableFuture<>();
        Thread onStop = new Thread(() -> {
            Process child = started.join();
            if (child != null) {
                endAndReap(child);
                afterEnd.run();
            }
        }, "runboard-relaunched-window");
        Runtime.getRuntime().addShutdownHook(onStop);
        Process child;
        try {
            child = new ProcessBuilder(command).inheritIO().start();
        } catch (IOException | RuntimeException e) {
            started.complete(null);
            Runtime.getRuntime().removeShutdownHook(onStop);
            throw e;
        }
        started.complete(child);
        try {
            int status = child.waitFor();
            afterEnd.run();
            return status;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    /**
     * Ends the window's JVM as a TERM would and waits for it: it saves what it saves on a TERM, and this JVM
     * reaps it, since an init that does not reap orphans (a container's) would keep it as a zombie.
     */
    private static void endAndReap(Process child) {
        child.destroy();
        try {
            if (!child.waitFor(10, TimeUnit.SECONDS)) {
                child.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static boolean hugePagesOnRequest() {
        try {
            return Files.readString(Path.of("/sys/kernel/mm/transparent_hugepage/enabled")).contains("[madvise]");
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }
}
