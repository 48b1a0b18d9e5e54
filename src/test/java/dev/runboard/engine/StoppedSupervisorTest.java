package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.Launcher;
import dev.runboard.process.Await;
import dev.runboard.process.LinuxProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A supervisor that stops answering (SIGSTOP) used to hang every client for ever without a word. A
 * request that lasts ({@code wait}) is kept alive by the supervisor's heartbeats, however long it
 * takes; a silent one ends in one line naming the supervisor's pid, that it is stopped, and what to
 * do. The CLI runs as a user's would, in its own JVM, with the silence limit shortened.
 */
@Tag("slow")
class StoppedSupervisorTest {
    private static final String SILENCE = "1s";

    @TempDir
    Path dataDir;

    @Test
    void aLastingRequestLivesOnHeartbeatsAndAStoppedSupervisorIsSaidInOneLine() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            // wait outlasts the silence limit three times over: the heartbeats keep it.
            String id = fx.client().start(SessionSpec.shell("sleep 3").shell(Path.of("/bin/sh")).cwd(dataDir).build());
            Run waited = cli("wait", id);
            assertEquals(0, waited.exit, waited.toString());

            long supervisor = fx.supervisorPid();
            ProcessHandle.of(supervisor).orElseThrow();
            signal(supervisor, Signal.STOP);
            try {
                Await.until(Duration.ofSeconds(10), "the supervisor stopped", () -> state(supervisor) == 'T');
                for (String[] command : List.of(new String[] {"list"}, new String[] {"supervisor", "status"},
                        new String[] {"show", id})) {
                    Run silent = cli(command);
                    assertEquals(1, silent.exit, silent.toString());
                    List<String> lines = silent.err.lines().toList();
                    assertEquals(1, lines.size(), "one line: " + silent);
                    String line = lines.get(0);
                    assertTrue(line.contains("pid " + supervisor) && line.contains("it is stopped")
                            && line.contains("kill -CONT " + supervisor), line);
                }
            } finally {
                signal(supervisor, Signal.CONT);
            }
            Run after = cli("list");
            assertEquals(0, after.exit, "the same supervisor answers once resumed: " + after);
            assertEquals(supervisor, fx.supervisorPid());
        }
    }

    private record Run(int exit, String out, String err) {
    }

    /** {@code runboard ARGS --data-dir D} in a JVM of its own, as bin/runboard runs it; within a minute. */
    private Run cli(String... args) throws IOException, InterruptedException {
        List<String> given = new ArrayList<>(List.of(args));
        given.addAll(args[0].equals("supervisor") ? 2 : 1, List.of("--data-dir", dataDir.toString()));
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), Launcher.class.getName()));
        command.addAll(given);
        Path out = Files.createTempFile(dataDir, "out", ".txt");
        Path err = Files.createTempFile(dataDir, "err", ".txt");
        ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("RUNBOARD_SUPERVISOR_SILENCE", SILENCE);
        Process p = pb.start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("runboard " + String.join(" ", args) + " hung");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static void signal(long pid, Signal signal) throws Exception {
        assertEquals(0, new ProcessBuilder("kill", "-" + signal.name(), Long.toString(pid)).start().waitFor());
    }

    private static char state(long pid) {
        return LinuxProcesses.readStat(pid).map(ProcInfo::state).orElse('?');
    }
}
