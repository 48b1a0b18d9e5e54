package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.store.Json;
import dev.runboard.testing.Poll;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The supervisor as the CLI meets it: started on demand, the one owner, private, and stoppable. */
class SupervisorTest {
    @TempDir
    Path dataDir;

    @Test
    void theFirstClientStartsTheSupervisorAndEveryCommandTalksToIt() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            assertEquals(1, fx.cli("supervisor", "status").exit(), "no supervisor before the first client");
            String id = fx.start("--shell", "/bin/sh", "--", "echo hello; sleep 30");
            long pid = fx.supervisorPid();
            assertTrue(pid > 0, "start brought a supervisor up");

            SupervisorFixture.Result second = fx.cli("start", "--shell", "/bin/sh", "--", "echo two; exit 3");
            assertEquals(pid, fx.supervisorPid(), "one supervisor per data dir: the second start used it");
            assertEquals(3, fx.cli("wait", second.out().strip()).exit());

            Await.until(Duration.ofSeconds(10), "the output to be captured",
                    () -> json(fx.cli("show", id).out()).path("output").asText().equals("hello\n"));
            JsonNode signal = Json.mapper().readTree(fx.cli("signal", id, "STOP").out());
            assertTrue(signal.path("sent").asBoolean());
            Await.until(Duration.ofSeconds(10), "the list to read paused or running",
                    () -> fx.cli("list").out().contains(id));
            fx.cli("signal", id, "CONT");

            SupervisorFixture.Result kill = fx.cli("kill", id, "--grace", "1");
            assertEquals(0, kill.exit(), kill.err());
            assertTrue(Json.mapper().readTree(kill.out()).path("survivors").isEmpty());
            // By a prefix of its id: the shortest that the other session's id (likely of the same second) does not share.
            String other = second.out().strip();
            int length = 17;
            while (other.startsWith(id.substring(0, length))) {
                length++;
            }
            JsonNode shown = Json.mapper().readTree(fx.cli("show", id.substring(0, length)).out());
            assertEquals("killed", shown.path("status").asText(), "the record is final when kill returns");

            SupervisorFixture.Result unknown = fx.cli("kill", "nosuchid");
            assertEquals(2, unknown.exit());
            assertTrue(unknown.err().contains("no session nosuchid"), unknown.err());

            // Private: the socket 0600 in a 0700 folder.
            Path socket = fx.client().paths().socket();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket)));
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(socket.getParent())));

            assertEquals(0, fx.cli("supervisor", "stop").exit());
            // Stopped means gone, the data dir let go of: a script may remove it or replace the jar next (the supervisor
            // answered first and wrote its list index after, into a folder being removed: bench/kill-hundred.sh's rm).
            assertTrue(exited(pid), "the supervisor had exited when stop returned (its parent may not have reaped it yet)");
            assertTrue(Files.exists(dataDir.resolve(ListIndex.FILE)), "its last act, the list index, was done");
            assertEquals(1, fx.cli("supervisor", "status").exit());
        }
    }

    /** Gone from /proc, or a zombie there (state Z: exited, not yet reaped by its parent). */
    private static boolean exited(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) == 'Z';
        } catch (java.io.IOException gone) {
            return true;
        }
    }

    /** bin/runboard's thin client's run of a command: what a user's terminal shows, and the exit code. */
    private SupervisorFixture.Result quick(String... args) {
        try {
            ThinClient.Run run = ThinClient.of(dataDir).run(args);
            return new SupervisorFixture.Result(run.exit(), run.text(), run.err());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /**
     * A wait blocked in a supervisor that is killed under it is asked again of the next supervisor,
     * which adopts the session: both clients end with the command's own code, not a reset connection.
     */
    @Test
    void aWaitWhoseSupervisorIsKilledUnderItEndsWithTheSessionsCode() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = quick("start", "--shell", "/bin/sh", "--", "sleep 4; exit 5").out().strip();
            long first = fx.supervisorPid();
            long idle = openSockets(first);
            java.util.concurrent.CompletableFuture<SupervisorFixture.Result> lean =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> quick("wait", id));
            java.util.concurrent.CompletableFuture<SupervisorFixture.Result> full =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> fx.cli("wait", id));
            // Both waits are in the supervisor's hands before it dies: it holds two more connections.
            Await.until(Duration.ofSeconds(30), "both waits to reach the supervisor",
                    () -> openSockets(first) >= idle + 2 || lean.isDone() || full.isDone());
            ProcessHandle.of(first).orElseThrow().destroyForcibly();

            SupervisorFixture.Result leanEnd = lean.get(60, java.util.concurrent.TimeUnit.SECONDS);
            SupervisorFixture.Result fullEnd = full.get(60, java.util.concurrent.TimeUnit.SECONDS);
            assertEquals(5, leanEnd.exit(), leanEnd.out() + leanEnd.err());
            assertEquals(5, fullEnd.exit(), fullEnd.out() + fullEnd.err());
            assertTrue(fx.supervisorPid() != first, "a new supervisor answered");
        }
    }

    /** The sockets a process holds (its listening one, one per connected client). */
    private static long openSockets(long pid) {
        try (var fds = Files.list(Path.of("/proc", Long.toString(pid), "fd"))) {
            return fds.filter(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().startsWith("socket:");
                } catch (java.io.IOException gone) {
                    return false;
                }
            }).count();
        } catch (java.io.IOException gone) {
            return 0;
        }
    }

    @Test
    void theLeanClientsPrintWhatTheFullCliPrintsWithItsExitCodes() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            SupervisorFixture.Result started = quick("start", "--shell", "/bin/sh", "--", "echo lean; exit 6");
            assertEquals(0, started.exit(), started.err());
            String id = started.out().strip();
            assertEquals(6, quick("wait", id).exit(), "wait exits with the session's code");
            assertEquals(fx.cli("show", id).out(), quick("show", id).out());
            assertEquals(fx.cli("list").out().lines().skip(1).map(l -> l.substring(0, 40)).toList(),
                    quick("list").out().lines().skip(1).map(l -> l.substring(0, 40)).toList());
            assertEquals("lean\n", json(quick("list", "--json").out()).get(0).path("output").asText());

            String running = quick("start", "--shell", "/bin/sh", "--", "sleep 30").out().strip();
            assertTrue(json(quick("signal", running, "STOP").out()).path("sent").asBoolean());
            SupervisorFixture.Result kill = quick("kill", running, "--grace", "0");
            assertEquals(0, kill.exit(), kill.err());
            assertTrue(json(kill.out()).path("survivors").isEmpty());

            SupervisorFixture.Result unknown = quick("show", "nosuchid");
            assertEquals(2, unknown.exit());
            assertEquals(fx.cli("show", "nosuchid").err(), unknown.err(), "the same one line");
            assertEquals(2, quick("list", "--bogus").exit());
            assertTrue(quick("list", "--help").out().contains("Usage: runboard list"), "help comes from the supervisor's CLI too");
        }
    }

    @Test
    void aSpecsEnvironmentNeverAppearsOnAnyCommandLine() throws Exception {
        String secret = "s3cr3t-" + System.nanoTime();
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--env", "API_TOKEN=" + secret, "--shell", "/bin/sh", "--",
                    "echo \"token has ${#API_TOKEN} chars\"; sleep 30");
            Await.until(Duration.ofSeconds(10), "the command to print", () -> fx.cli("show", id).out().contains("token has"));
            OsProcesses os = OsProcesses.forThisMachine();
            for (ProcInfo p : os.snapshot().all()) {
                assertFalse(os.commandLine(p.pid()).contains(secret), "pid " + p.pid() + " shows the secret: " + os.commandLine(p.pid()));
            }
            assertEquals(0, fx.cli("kill", id, "--grace", "0").exit());
        }
    }

    @Test
    void theSupervisorPrunesBySettingsAndReadingNeverDeletes() throws Exception {
        Files.createDirectories(dataDir);
        Files.writeString(dataDir.resolve("settings.json"), "{\"keep_finished\": 3}", StandardCharsets.UTF_8);
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            for (int i = 0; i < 5; i++) {
                String id = fx.start("--shell", "/bin/sh", "--", "echo " + i);
                assertEquals(0, fx.cli("wait", id).exit());
            }
            Await.until(Duration.ofSeconds(10), "the supervisor to keep the settings' 3",
                    () -> json(fx.cli("list", "--json").out()).size() == 3);
            fx.cli("supervisor", "stop");
        }
        // A stricter limit set while no supervisor runs: the next one (brought back by list) deletes nothing on a
        // read; the next session's end prunes by the settings as they are then.
        Files.writeString(dataDir.resolve("settings.json"), "{\"keep_finished\": 2}", StandardCharsets.UTF_8);
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            for (int i = 0; i < 3; i++) {
                assertEquals(3, Json.mapper().readTree(fx.cli("list", "--json").out()).size(), "a read never deletes");
            }
            String id = fx.start("--shell", "/bin/sh", "--", "echo last");
            assertEquals(0, fx.cli("wait", id).exit());
            Await.until(Duration.ofSeconds(10), "the end to prune to the settings' 2",
                    () -> json(fx.cli("list", "--json").out()).size() == 2);
        }
    }

    @Test
    void twoSupervisorsRaceForOneDataDirAndOneWins() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            Thread[] clients = new Thread[4];
            String[] ids = new String[clients.length];
            for (int i = 0; i < clients.length; i++) {
                int n = i;
                clients[i] = new Thread(() -> ids[n] = fx.start("--shell", "/bin/sh", "--", "echo " + n));
                clients[i].start();
            }
            for (Thread t : clients) {
                t.join();
            }
            long pid = fx.supervisorPid();
            for (String id : ids) {
                assertEquals(0, fx.cli("wait", id).exit(), "session " + id);
            }
            assertEquals(pid, fx.supervisorPid());
            // Read from /proc: ProcessHandle.Info has no arguments for a command line longer than a page (the class path).
            String wanted = "supervisor run --data-dir " + fx.client().paths().dataDir();
            java.util.function.LongSupplier supervisors = () ->
                    ProcessHandle.allProcesses().filter(h -> commandLine(h.pid()).contains(wanted)).count();
            // A supervisor another client launched in the race may still be starting its JVM when the sessions
            // end; finding the lock taken, it exits on its own. One stays: the one that served every client.
            try {
                Poll.waitFor(30, java.util.concurrent.TimeUnit.SECONDS,
                        () -> supervisors.getAsLong() == 1);
            } catch (java.util.concurrent.TimeoutException e) {
                assertEquals(1, supervisors.getAsLong(), "one supervisor for the data dir, once the race's losers exited");
            }
            assertEquals(pid, fx.supervisorPid(), "the supervisor that stayed is the one that served the clients");
            assertNotEquals(-1, pid);
        }
    }

    @Test
    void theSupervisorNamesItsSocketAndAdoptsForAnExecOnlyTheSessionsOwnWrapper() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            assertEquals(0, fx.cli("start", "--", "true").exit());
            SupervisorPaths paths = fx.client().paths();
            assertEquals(paths.socket() + "\n" + fx.supervisorPid() + "\n", Files.readString(paths.address()),
                    "bin/runboard finds the socket there (its first line), and a client whose supervisor is silent its pid");
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(paths.address())));
            // A process that is not a session's wrapper (no tag): a client must not hand the supervisor
            // someone else's process to own, record and kill.
            Process stranger = new ProcessBuilder("sleep", "60").start();
            try (java.nio.channels.SocketChannel ch = SupervisorSocket.connect(paths)) {
                String id = "20261204-120000-abcdef";
                Requests.send(Protocol.writer(ch), new AdoptExecRequest(id, stranger.pid(), System.currentTimeMillis(),
                        java.util.List.of("--", "sleep 60")));
                JsonNode reply = Json.mapper().readTree(new ReplyReader(ch, paths).next());
                assertFalse(reply.path("ok").asBoolean(), reply.toString());
                assertEquals("process " + stranger.pid() + " is not the wrapper of session " + id, reply.path("error").asText());
                assertFalse(Files.exists(dataDir.resolve("sessions").resolve(id)), "nothing was made for it");
                assertTrue(stranger.isAlive(), "and it was left alone");
            } finally {
                stranger.destroyForcibly().waitFor();
            }
            long pid = fx.supervisorPid();
            assertEquals(0, fx.cli("supervisor", "stop").exit());
            Await.until(Duration.ofSeconds(20), "the supervisor to exit", () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
            assertFalse(Files.exists(paths.address()), "a stopped supervisor's address is gone");
        }
    }

    private static String commandLine(long pid) {
        try {
            return new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc", Long.toString(pid), "cmdline")),
                    java.nio.charset.StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (java.io.IOException e) {
            return ""; // gone, or not ours to read
        }
    }

    private static JsonNode json(String text) {
        try {
            return Json.mapper().readTree(text);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
