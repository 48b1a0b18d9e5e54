package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.cli.RunboardCli;
import dev.runboard.process.Await;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every subcommand against a supervisor of another protocol version (an older runboard's, still
 * serving the data dir): one line saying which versions met and what to do, never a trace; and what
 * that line says to do works: {@code supervisor stop} ends it (here by SIGTERM, once /proc shows it
 * is the socket's listener), after which the next command brings up this version's supervisor.
 */
class ProtocolMismatchTest {
    private static final String ID = "20261206-000000-abcdef";
    /** What a version-2 supervisor answers any version-3 request with. */
    private static final String OLD_REPLY = "{\"v\":2,\"ok\":false,\"error\":\"the client speaks protocol version 4, this"
            + " runboard speaks 2\",\"usage\":false}";

    @TempDir
    Path dataDir;
    private Process old;

    @AfterEach
    void stopEverything() throws Exception {
        if (old != null) {
            old.destroyForcibly().waitFor();
        }
        new SupervisorFixture(dataDir).close();
    }

    /** An old supervisor: a listener on this data dir's socket that answers every request as version 2 does. */
    private void startOldSupervisor() throws Exception {
        SupervisorPaths paths = SupervisorPaths.of(dataDir);
        paths.prepare();
        String perl = "use Socket; my $p = shift; unlink $p; umask 077; socket(my $s, AF_UNIX, SOCK_STREAM, 0) or die;"
                + " bind($s, pack_sockaddr_un($p)) or die \"bind: $!\"; listen($s, 64) or die; $| = 1; print \"up\\n\";"
                + " $SIG{TERM} = sub { unlink $p; exit 0 };"
                + " while (accept(my $c, $s)) { my $l = <$c>; syswrite($c, '" + OLD_REPLY + "' . \"\\n\") if defined $l; close $c }";
        old = new ProcessBuilder("perl", "-e", perl, paths.socket().toString()).redirectErrorStream(true).start();
        assertEquals("up", new String(old.getInputStream().readNBytes(3), StandardCharsets.UTF_8).strip());
        Files.writeString(paths.address(), paths.socket() + "\n" + old.pid() + "\n");
    }

    private record Run(int exit, String out, String err) {
    }

    /** As bin/runboard's JVM runs a command line. */
    private Run runboard(String... args) {
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(args[0].equals("supervisor") ? 2 : 1, List.of("--data-dir", dataDir.toString()));
        String[] argv = all.toArray(String[]::new);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = RunboardCli.run(argv, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void everySubcommandSaysTheMismatchInOneLineAndSupervisorStopEndsIt() throws Exception {
        startOldSupervisor();
        Path stack = Files.writeString(dataDir.resolve("runboard.yaml"), "commands:\n  a:\n    command: true\n");
        List<String[]> asking = List.of(new String[] {"start", "--", "true"}, new String[] {"list"},
                new String[] {"list", "--json"}, new String[] {"show", ID}, new String[] {"kill", ID},
                new String[] {"kill", "--status", "running"}, new String[] {"signal", ID, "STOP"}, new String[] {"wait", ID},
                new String[] {"remove", ID}, new String[] {"up", "-f", stack.toString()},
                new String[] {"down", "-f", stack.toString()}, new String[] {"queue", "builds", "--parallel", "2"},
                new String[] {"supervisor", "status"});
        for (String[] command : asking) {
            Run r = runboard(command);
            String what = String.join(" ", command) + ": " + r;
            assertTrue(r.exit() != 0, what);
            assertEquals(1, r.err().lines().count(), "one line: " + what);
            assertTrue(r.err().contains("speaks protocol version 2, this runboard speaks 4")
                    && r.err().contains("run 'runboard supervisor stop'"), what);
            if (List.of("start", "list", "kill").contains(command[0]) && command.length <= 3) {
                // bin/runboard's thin client hands the refused call to the JVM, which says the same one line
                // (three of them: each hand-over is a JVM's start).
                ThinClient.Run thin = ThinClient.of(dataDir).run(command);
                assertEquals(r.exit(), thin.exit(), "thin " + what + thin.err());
                assertEquals(r.err(), thin.err(), "thin " + what);
            }
        }
        assertTrue(old.isAlive(), "nothing above ended it");

        Run stop = runboard("supervisor", "stop");
        assertEquals(0, stop.exit(), stop.toString());
        Await.until(Duration.ofSeconds(10), "the old supervisor to exit", () -> !old.isAlive());
        assertFalse(Files.exists(SupervisorPaths.of(dataDir).socket()), "its socket is gone with it");
        Run list = runboard("list");
        assertEquals(0, list.exit(), "this version's supervisor answers now: " + list);
    }
}
