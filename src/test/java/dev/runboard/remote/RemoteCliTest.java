package dev.runboard.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.process.Await;
import dev.runboard.store.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code runboard exec --host}: the command's exit code as ours; a host that cannot run it is exit 2 in one line. */
class RemoteCliTest {
    /** CPU % a busy loop shows at least, even on a loaded machine. */
    private static final double BUSY = 15;
    @RegisterExtension
    static final SshdExtension SSHD = new SshdExtension().namedToRunboard();

    @TempDir
    Path dataDir;

    @AfterEach
    void forgetTheHostsFolder() throws Exception {
        new SupervisorFixture(dataDir).close(); // exec --host brings the data dir's supervisor up
        SSHD.get().forget(dataDir);
    }

    @Test
    void execRunsOnTheHostAndExitsWithItsCode() {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-remote", "--cwd", "/tmp",
                "--", "echo from $(id -un); exit 5");
        assertEquals(5, r.exit(), r.err());
        assertTrue(r.out().contains("\"host\" : \"rb-remote\"") || r.out().contains("\"host\":\"rb-remote\""), r.out());
        assertTrue(r.out().contains("from " + SSHD.get().user), r.out());
    }

    @Test
    void startRunsOnTheHostThroughTheSupervisorAndAKilledSupervisorsSessionIsReattached() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--host", "rb-remote", "--cwd", "/tmp", "--",
                    "echo one; sleep 4; echo two; exit 4");
            dev.runboard.process.Await.until(java.time.Duration.ofSeconds(60), "the first line",
                    () -> fx.cli("show", id).out().contains("one"));
            long first = fx.supervisorPid();
            ProcessHandle.of(first).ifPresent(ProcessHandle::destroyForcibly); // the owner dies mid-run
            SupervisorFixture.Result waited = fx.cli("wait", id); // brings a new supervisor, which re-attaches
            assertEquals(4, waited.exit(), waited.out() + waited.err());
            JsonNode shown = Json.mapper().readTree(fx.cli("show", id).out());
            // The dead owner's output stream wrote on into the capture until its input ended with it: in place, so
            // beside the new owner's stream each byte is there once.
            assertEquals("one\ntwo\n", shown.path("output").asText(), shown.toString());
            assertEquals("rb-remote", shown.path("host").asText());
            dev.runboard.process.Await.until(java.time.Duration.ofSeconds(10), "no output stream of the session left",
                    () -> ProcessHandle.allProcesses().noneMatch(p -> p.info().arguments().map(a -> String.join(" ", a))
                            .orElse("").contains("'follow' '" + id + "'")));
            SupervisorFixture.Result refused = fx.cli("start", "--host", "rb-badauth", "--cwd", "/tmp", "--", "true");
            assertEquals(2, refused.exit(), refused.out() + refused.err());
            assertTrue(refused.err().contains("rb-badauth refused the login"), refused.err());
        }
    }

    @Test
    void aRemoteSessionShowsItsHostsCpuMemoryAndTreeAndAKillLeavesNoSurvivor() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--host", "rb-remote", "--cwd", "/tmp", "--",
                    "sh -c 'yes > /dev/null & sleep 120'");
            JsonNode[] seen = new JsonNode[1];
            // Sampled on the host with the output (about once a second). yes takes a whole core when it can;
            // with six builds on two cores it got 20 %, so the floor is the local sampler test's (SessionInsightTest).
            try {
                Await.until(Duration.ofSeconds(90), "yes on the host busy, beside sleep, in show's usage", () -> {
                    seen[0] = usage(fx, id);
                    List<String> commands = commands(seen[0]);
                    // sleep's memory too: sampled in the moment it was exec'ing, it showed 0 bytes once.
                    return process(seen[0], "yes") != null && process(seen[0], "yes").path("cpu_percent").asDouble() >= BUSY
                            && commands.contains("sleep 120") && process(seen[0], "sleep 120").path("rss_bytes").asLong() > 0;
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; the last usage: " + seen[0], e);
            }
            JsonNode yes = process(seen[0], "yes");
            assertTrue(seen[0].path("cpu_percent").asDouble() >= yes.path("cpu_percent").asDouble(), "the tree's CPU % sums"
                    + " its processes': " + seen[0]);
            assertTrue(seen[0].path("rss_bytes").asLong() > 0, "the tree's resident memory: " + seen[0]);
            assertTrue(process(seen[0], "sleep 120").path("rss_bytes").asLong() > 0, seen[0].toString());
            assertEquals(process(seen[0], "sleep 120").path("ppid").asLong(), yes.path("ppid").asLong(),
                    "yes and sleep are children of the same shell: " + seen[0]);
            assertTrue(liveTagged(id).size() >= 2, "the tree runs on the host");
            // The window is a client: its monitor shows what the supervisor's poll sampled on the host.
            try (dev.runboard.process.SupervisedSessions window = new dev.runboard.process.SupervisedSessions(
                    dev.runboard.process.EngineConfig.forDataDir(dataDir), fx.client())) {
                window.load();
                Await.until(Duration.ofSeconds(60), "the window's Processes view to list the host's yes and sleep", () -> {
                    dev.runboard.session.SessionInsight i = window.insight(id);
                    return i != null && i.cpuPercent() > 0 && i.rssBytes() > 0 && i.tree().nodes().stream()
                            .map(dev.runboard.session.ProcessTreeSnapshot.Node::command).toList().containsAll(List.of("yes", "sleep 120"));
                });
            }

            SupervisorFixture.Result killed = fx.cli("kill", id);
            assertEquals(0, killed.exit(), killed.out() + killed.err());
            assertEquals(List.of(), liveTagged(id), "no process of the session is left on the host");
            JsonNode end = Json.mapper().readTree(fx.cli("show", id).out());
            assertEquals("killed", end.path("status").asText());
            assertTrue(end.path("usage").isMissingNode(), "an ended session has no live usage: " + end);
        }
    }

    private static JsonNode listed(SupervisorFixture fx) {
        try {
            return Json.mapper().readTree(fx.cli("list", "--json").out());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static JsonNode usage(SupervisorFixture fx, String id) {
        try {
            return Json.mapper().readTree(fx.cli("show", id).out()).path("usage");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static List<String> commands(JsonNode usage) {
        List<String> out = new java.util.ArrayList<>();
        usage.path("processes").forEach(p -> out.add(p.path("command").asText()));
        return out;
    }

    /** The process running {@code command} in the usage's tree, or null. */
    private static JsonNode process(JsonNode usage, String command) {
        for (JsonNode p : usage.path("processes")) {
            if (p.path("command").asText().equals(command)) {
                return p;
            }
        }
        return null;
    }

    /** The host's processes (this machine's, as a second user) carrying the session's tag. */
    private static List<Long> liveTagged(String id) {
        dev.runboard.process.OsProcesses os = dev.runboard.process.OsProcesses.forThisMachine();
        return os.snapshot().all().stream().filter(dev.runboard.process.ProcInfo::alive)
                .filter(p -> os.hasEnvEntry(p.pid(), "RUNBOARD_SESSION=" + id)).map(dev.runboard.process.ProcInfo::pid)
                .toList();
    }

    @Test
    void theWindowsSendReachesARemoteCommandThroughTheSupervisor() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--host", "rb-remote", "--cwd", "/tmp", "--",
                    "read line; echo got:$line");
            fx.client().stdin(id, "hello\n".getBytes(java.nio.charset.StandardCharsets.UTF_8)); // what Send asks
            SupervisorFixture.Result waited = fx.cli("wait", id);
            assertEquals(0, waited.exit(), waited.out() + waited.err());
            JsonNode end = Json.mapper().readTree(fx.cli("show", id).out());
            assertEquals("got:hello\n", end.path("output").asText(), end.toString());
        }
    }

    @Test
    void theSettingsExtraSshConfigIsReadBesideTheUsersOwn() throws Exception {
        SupervisorFixture.Result missing = SupervisorFixture.cli(dataDir, "config", "set", "ssh_config", "/no/such/ssh_config");
        assertEquals(2, missing.exit(), missing.out() + missing.err());
        assertEquals(1, missing.err().strip().lines().count(), missing.err());
        assertTrue(missing.err().contains("no readable file /no/such/ssh_config"), missing.err());

        // rb-extra is only in the extra file; rb-remote only in the config that stands for the user's own.
        String fixture = java.nio.file.Files.readString(SSHD.get().config);
        String remoteBlock = fixture.substring(fixture.indexOf("Host rb-remote\n"), fixture.indexOf("Host rb-noperl\n"));
        Path extra = SSHD.get().dir.resolve("extra config");
        java.nio.file.Files.writeString(extra, remoteBlock.replace("Host rb-remote\n", "Host rb-extra\n"));
        SupervisorFixture.Result set = SupervisorFixture.cli(dataDir, "config", "set", "ssh_config", extra.toString());
        assertEquals(0, set.exit(), set.out() + set.err());
        assertEquals("ssh_config " + extra, set.out().strip());

        SupervisorFixture.Result viaExtra = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-extra", "--cwd", "/tmp",
                "--", "echo via-extra");
        assertEquals(0, viaExtra.exit(), viaExtra.out() + viaExtra.err());
        assertTrue(viaExtra.out().contains("via-extra"), viaExtra.out());
        SupervisorFixture.Result viaOwn = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-remote", "--cwd", "/tmp",
                "--", "echo via-own");
        assertEquals(0, viaOwn.exit(), viaOwn.out() + viaOwn.err());
        assertTrue(viaOwn.out().contains("via-own"), viaOwn.out());
    }

    @Test
    void withoutAReplacementTheGeneratedConfigStillIncludesTheUsersOwn() throws Exception {
        Path extra = dataDir.resolve("extra");
        java.nio.file.Files.writeString(extra, "Host rb-nowhere\n  HostName 127.0.0.1\n");
        Path generated = SshConfigFile.of(dataDir.resolve("ctl"), null, extra);
        assertEquals(List.of("Include " + extra, "Include ~/.ssh/config", "Include /etc/ssh/ssh_config", "Host *",
                "  ServerAliveInterval 2", "  ServerAliveCountMax 2", "  ConnectTimeout 10"),
                java.nio.file.Files.readAllLines(generated).stream().filter(l -> !l.startsWith("#")).toList(),
                "ssh -F reads only this file: it must bring the user's and the system's configs back, before runboard's"
                        + " defaults");
        Process p = new ProcessBuilder("ssh", "-G", "-F", generated.toString(), "rb-nowhere").redirectErrorStream(true).start();
        String resolved = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), resolved);
        assertTrue(resolved.contains("hostname 127.0.0.1"), "ssh resolves the extra file's alias: " + resolved);
    }

    /** {@code runboard exec --host} as a user runs it: its own JVM, the test sshd's config from the variable. */
    private Process execOnHost(String command) throws Exception {
        String java = ProcessHandle.current().info().command().orElse("java");
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), "dev.runboard.Launcher",
                "exec", "--data-dir", dataDir.toString(), "--host", "rb-remote", "--cwd", "/tmp", "--timeout", "120", "--",
                command).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put(SshSessions.CONFIG_VAR, SSHD.get().config.toString());
        return pb.start();
    }

    private static JsonNode finished(Process p) throws Exception {
        assertTrue(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS), "exec ended");
        return Json.mapper().readTree(p.getInputStream().readAllBytes());
    }

    @Test
    void execsStdinReachesTheRemoteCommandAtOnceAndItsEndIsEndOfInput() throws Exception {
        // Input still open: the line must reach the command as it is written, not at the end of the input.
        Process reading = execOnHost("read line; echo got:$line");
        java.io.OutputStream toReading = reading.getOutputStream();
        toReading.write("hi\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        toReading.flush();
        JsonNode read = finished(reading);
        toReading.close();
        assertEquals(0, reading.exitValue(), read.toString());
        assertEquals("got:hi\n", read.path("output").asText());

        // The end of exec's input is the end of the remote command's: cat returns, the next command runs.
        Process catting = execOnHost("cat; echo after-cat");
        try (java.io.OutputStream in = catting.getOutputStream()) {
            in.write("hi\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        JsonNode end = finished(catting);
        assertEquals(0, catting.exitValue(), end.toString());
        assertEquals("completed", end.path("status").asText());
        assertEquals("hi\nafter-cat\n", end.path("output").asText());

        // Each ssh call's stderr went to a file unlinked at once: none is left in runboard's ssh folder. The
        // supervisor's own polls go on meanwhile, each making a new file (a new name) and unlinking it once ssh
        // runs; on a loaded machine one is nearly always there. A file left behind is one that stays: each
        // file seen now must be gone within the bound, whatever new ones come and go.
        String runtime = System.getenv("XDG_RUNTIME_DIR");
        Path control = runtime != null && !runtime.isBlank() ? Path.of(runtime, "runboard-ssh") : dataDir.resolve("ssh");
        List<Path> seen = errorFiles(control);
        dev.runboard.process.Await.until(java.time.Duration.ofSeconds(10), () -> "ssh .err files left in " + control
                + ": " + seen.stream().filter(Files::exists).toList(), () -> seen.stream().noneMatch(Files::exists));
    }

    @Test
    void theThinClientsRemoteExecRunsInTheSupervisorWithItsStdinAndCtrlCKillsTheTree() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            fx.cli("list"); // the supervisor up: bin/runboard hands exec --host to its thin client, no JVM
            dev.runboard.engine.ThinClient thin = dev.runboard.engine.ThinClient.of(dataDir);
            // Input still open: the line reaches the command as it is written, not at the end of the input.
            Process reading = thin.start("exec", "--host", "rb-remote", "--cwd", "/tmp", "--", "read line; echo got:$line");
            reading.getOutputStream().write("hi\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            reading.getOutputStream().flush();
            JsonNode read = finished(reading);
            reading.getOutputStream().close();
            assertEquals(0, reading.exitValue(), read.toString());
            assertEquals("got:hi\n", read.path("output").asText());

            // The end of the client's input is the remote command's: cat returns, the next command runs.
            Process catting = thin.start("exec", "--host", "rb-remote", "--cwd", "/tmp", "--", "cat; echo after-cat; exit 4");
            try (java.io.OutputStream in = catting.getOutputStream()) {
                in.write("hi\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            }
            JsonNode end = finished(catting);
            assertEquals(4, catting.exitValue(), end.toString());
            assertEquals("hi\nafter-cat\n", end.path("output").asText());

            // Ctrl-C: the supervisor kills the tree on the host; the client prints the killed snapshot and exits 130.
            Process running = thin.start("exec", "--host", "rb-remote", "--cwd", "/tmp", "--", "echo started; sleep 600");
            String[] id = new String[1];
            Await.until(Duration.ofSeconds(60), "the remote sleep running, its output here", () -> {
                for (JsonNode s : listed(fx)) {
                    if (s.path("status").asText().equals("running") && s.path("output").asText().contains("started")
                            && liveTagged(s.path("session_id").asText()).size() >= 2) {
                        id[0] = s.path("session_id").asText();
                    }
                }
                return id[0] != null;
            });
            new ProcessBuilder("kill", "-INT", String.valueOf(running.pid())).start().waitFor();
            JsonNode killed = finished(running);
            assertEquals(130, running.exitValue(), killed.toString());
            assertEquals("killed", killed.path("status").asText());
            assertEquals(List.of(), liveTagged(id[0]), "no process of the session is left on the host");
        }
    }

    @Test
    void theWindowSaysDisconnectedWhenTheCliDoesAndListNamesTheHost() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--host", "rb-remote", "--cwd", "/tmp", "--",
                    "echo one; sleep 60; echo two");
            Await.until(Duration.ofSeconds(60), "the first line", () -> fx.cli("show", id).out().contains("one"));
            String listed = fx.cli("list").out();
            String header = listed.lines().findFirst().orElseThrow();
            String line = listed.lines().filter(l -> l.startsWith(id)).findFirst().orElseThrow();
            assertTrue(header.contains("HOST"), header);
            assertEquals("rb-remote", line.substring(header.indexOf("HOST")).split(" ")[0], listed);
            try (dev.runboard.process.SupervisedSessions window = new dev.runboard.process.SupervisedSessions(
                    dev.runboard.process.EngineConfig.forDataDir(dataDir), fx.client())) {
                window.load();
                window.follow(Duration.ofMillis(200)); // as the window's poller reads the records
                Await.until(Duration.ofSeconds(30), "the window to read connected", () -> window.find(id)
                        .map(s -> "connected".equals(s.snapshot().connection())).orElse(false));
                // The supervisor's master connection (the same control socket: same data dir, same config).
                SshCommand ssh = new SshSessions(dataDir, SSHD.get().config).link("rb-remote").ssh();
                SSHD.get().cutOff();
                try {
                    ssh.exitMaster();
                    // Each look ends the master again: a poll that read its config before the cut-off has the open
                    // port, and a master it made after the exit above would carry the link on (no real outage lets a
                    // new connection through). Seen once in a full suite: 60 s without "disconnected".
                    Await.until(Duration.ofSeconds(60), () -> "the CLI to say disconnected; show said " + fx.cli("show", id).out()
                            + "; the supervisor's log ends: " + fx.logTail(), () -> {
                                exitQuietly(ssh);
                                return fx.cli("show", id).out().replace(" ", "").contains("\"connection\":\"disconnected\"");
                            });
                    Await.until(Duration.ofSeconds(30), "the window to say disconnected too", () -> window.find(id)
                            .map(s -> "disconnected".equals(s.snapshot().connection())).orElse(false));
                    assertTrue(fx.cli("list").out().lines().anyMatch(l -> l.startsWith(id) && l.endsWith("[disconnected]")),
                            "list says it too");
                } finally {
                    SSHD.get().reconnect();
                }
                Await.until(Duration.ofSeconds(60), "the window to read connected again", () -> window.find(id)
                        .map(s -> "connected".equals(s.snapshot().connection())).orElse(false));
            }
            assertEquals(0, fx.cli("kill", id).exit());
        }
    }

    private static void exitQuietly(SshCommand ssh) {
        try {
            ssh.exitMaster();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void theKeepAlivesAreDefaultsTheUsersOwnSettingsOverride() throws Exception {
        Path own = dataDir.resolve("own config");
        java.nio.file.Files.writeString(own, "Host slow-box\n  HostName 127.0.0.1\n  ServerAliveInterval 30\n"
                + "  ConnectTimeout 45\n\nHost *\n  ServerAliveCountMax 9\n");
        Path generated = SshConfigFile.of(dataDir.resolve("ctl"), own, null);
        java.util.Map<String, String> slow = resolved(generated, "slow-box");
        assertEquals("30", slow.get("serveraliveinterval"), "the user's interval wins: " + slow);
        assertEquals("45", slow.get("connecttimeout"), slow.toString());
        assertEquals("9", slow.get("serveralivecountmax"), "the user's Host * too: " + slow);
        java.util.Map<String, String> other = resolved(generated, "any-box");
        assertEquals("2", other.get("serveraliveinterval"), "runboard's default where the user set none: " + other);
        assertEquals("10", other.get("connecttimeout"), other.toString());
        // Nothing of it on ssh's command line, where it would override the user's settings.
        List<String> argv = new SshCommand("slow-box", generated, dataDir.resolve("ctl")).argv("true");
        assertTrue(argv.stream().noneMatch(a -> a.startsWith("ServerAlive") || a.startsWith("ConnectTimeout")), argv.toString());
    }

    /** What {@code ssh -G} resolves for a host from a config file, option by option (lower case). */
    private static java.util.Map<String, String> resolved(Path config, String host) throws Exception {
        Process p = new ProcessBuilder("ssh", "-G", "-F", config.toString(), host).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
        java.util.Map<String, String> options = new java.util.HashMap<>();
        out.lines().map(l -> l.split(" ", 2)).filter(f -> f.length == 2).forEach(f -> options.putIfAbsent(f[0], f[1]));
        return options;
    }

    @Test
    void anUnreachableHostIsExitTwoInOneLine() {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-unreachable", "--cwd", "/tmp",
                "--", "true");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("rb-unreachable is unreachable"), r.err());
    }

    private static List<Path> errorFiles(Path folder) {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(folder)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".err")).toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
