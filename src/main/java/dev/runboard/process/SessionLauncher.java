package dev.runboard.process;

import dev.runboard.session.SessionSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Starts a session's command with its output going straight into the capture file.
 *
 * <p>{@code Redirect.appendTo} hands the child the file itself: no JVM thread copies bytes, and a
 * background grandchild's output still lands after the direct child exits (a pipe would lose it).
 */
final class SessionLauncher {
    private static final java.time.Duration GROUP_WAIT = java.time.Duration.ofMillis(500);
    private final OsProcesses os;

    SessionLauncher(OsProcesses os) {
        this.os = os;
    }

    Process launch(SessionSpec spec, String tag, Path capture) throws IOException {
        List<String> argv = new ArrayList<>(os.launchPrefix());
        argv.addAll(spec.launchArgv());
        ProcessBuilder pb = new ProcessBuilder(argv)
                .directory(spec.cwd().toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(capture.toFile()));
        // stdin stays a pipe (the default): kept open so input can be sent later.
        pb.environment().putAll(spec.env());
        int eq = tag.indexOf('=');
        pb.environment().put(tag.substring(0, eq), tag.substring(eq + 1));
        Process process = pb.start();
        if (os.supportsTreeKill()) {
            awaitOwnGroup(process);
        }
        return process;
    }

    /**
     * {@code start()} returns once {@code setsid} is exec'd, a moment before it calls setsid(2).
     * Waiting for the new group (well under a millisecond) means a kill right after start reaches
     * the whole group and a child forked at once is inside it.
     */
    private static void awaitOwnGroup(Process process) {
        long deadline = System.nanoTime() + GROUP_WAIT.toNanos();
        while (process.isAlive() && System.nanoTime() < deadline) {
            var stat = LinuxProcesses.readStat(process.pid());
            if (stat.isEmpty() || stat.get().pgid() == process.pid()) {
                return;
            }
            Thread.onSpinWait();
        }
    }
}
