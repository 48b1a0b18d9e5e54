package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.process.Await;
import dev.runboard.stack.StackScenarios;
import dev.runboard.store.Json;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Issue #17 with the window closed: the CLI and the supervisor alone run the stacks. */
class StackCliTest {
    static final Duration WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;
    SupervisorFixture sv;

    @BeforeEach
    void setUp() {
        sv = new SupervisorFixture(dir.resolve("data"));
    }

    @AfterEach
    void tearDown() throws Exception {
        sv.close();
    }

    private Path file(String name, String yaml) throws Exception {
        Path root = Files.createDirectories(dir.resolve(name));
        return Files.writeString(root.resolve("runboard.yaml"), yaml);
    }

    private List<JsonNode> list() throws Exception {
        SupervisorFixture.Result r = sv.cli("list", "--json");
        assertEquals(0, r.exit(), r.err());
        List<JsonNode> all = new ArrayList<>();
        Json.mapper().readTree(r.out()).forEach(all::add);
        return all;
    }

    private List<JsonNode> runsOf(String name) throws Exception {
        return list().stream().filter(s -> name.equals(s.path("stack_name").asText(null)))
                .sorted(Comparator.comparing((JsonNode s) -> s.path("restarts").asInt())
                        .thenComparing(s -> s.path("started_at").asText())).toList();
    }

    private static Instant at(JsonNode s, String field) {
        return Instant.parse(s.path(field).asText());
    }

    @Test
    void upWaitsForTheDatabaseAndMigrationAndDownStopsDependantsFirst() throws Exception {
        Path f = file("shop", StackScenarios.dbMigrateServer(dev.runboard.stack.StackScenarios.freePort()));
        SupervisorFixture.Result up = sv.cli("up", "-f", f.toString(), "--wait");
        assertEquals(0, up.exit(), up.out() + up.err());
        assertTrue(up.out().contains("server"), up.out());
        JsonNode db = runsOf("db").get(0);
        JsonNode migrate = runsOf("migrate").get(0);
        JsonNode server = runsOf("server").get(0);
        assertTrue(db.path("ready").asBoolean(), "up --wait returns once all are ready: " + db);
        assertEquals("completed", migrate.path("status").asText());
        assertEquals("running", server.path("status").asText());
        Instant ready = Instant.parse(db.path("events").get(0).path("time").asText());
        assertTrue(!at(migrate, "started_at").isBefore(ready), "migrate after db ready");
        assertTrue(!at(server, "started_at").isBefore(at(migrate, "ended_at")), "server after migrate");
        assertEquals("succeeded", server.path("depends_on").path("migrate").asText());

        SupervisorFixture.Result down = sv.cli("down", "-f", f.toString());
        assertEquals(0, down.exit(), down.err());
        assertTrue(down.out().startsWith("stopped server"), down.out());
        assertEquals("killed", runsOf("db").get(0).path("status").asText());
        assertEquals(1, runsOf("db").size());
    }

    @Test
    void aReplacedSupervisorKnowsTheStackFromTheRecords() throws Exception {
        Path f = file("replaced", """
                commands:
                  db:
                    command: exec sleep 60
                    shell: /bin/sh
                    autostart: true
                  migrate:
                    command: echo migrated
                    shell: /bin/sh
                    depends_on: {db: started}
                  server:
                    command: exec sleep 61
                    shell: /bin/sh
                    depends_on: {migrate: succeeded}
                    autostart: true
                """);
        assertEquals(0, sv.cli("up", "-f", f.toString()).exit());
        dev.runboard.process.Await.until(java.time.Duration.ofSeconds(30), "the stack to be up", () -> {
            try {
                return runsOf("server").size() == 1 && runsOf("server").get(0).path("status").asText().equals("running");
            } catch (Exception e) {
                return false;
            }
        });
        long first = sv.supervisorPid();
        assertEquals(0, sv.cli("supervisor", "stop").exit(), "the sessions keep running without it");

        // The next supervisor never started them: up starts no duplicate and does not run the migration again.
        SupervisorFixture.Result again = sv.cli("up", "-f", f.toString());
        assertEquals(0, again.exit(), again.out() + again.err());
        assertTrue(sv.supervisorPid() != first);
        assertEquals(1, runsOf("db").size(), "no second db: " + list());
        assertEquals(1, runsOf("migrate").size(), "migrate succeeded while the stack runs: not run again");
        assertEquals(1, runsOf("server").size());

        SupervisorFixture.Result down = sv.cli("down", "-f", f.toString());
        assertEquals(0, down.exit(), down.err());
        assertTrue(down.out().startsWith("stopped server"), "dependants first: " + down.out());
        assertTrue(down.out().contains("db"), down.out());
        assertEquals("killed", runsOf("server").get(0).path("status").asText());
        assertEquals("killed", runsOf("db").get(0).path("status").asText());
    }

    @Test
    void downEndsEveryDescendantHoweverItEscaped() throws Exception {
        // down asks the session's wrapper for the one kill, as kill and the window do (docs/PROCESS-TREE.md).
        Path f = file("escapes", """
                commands:
                  escapees:
                    command: sh escapees.sh
                    shell: /bin/sh
                    grace: 300ms
                    autostart: true
                """);
        try (var in = getClass().getResourceAsStream("/trees/escapees.sh")) {
            Files.copy(in, f.getParent().resolve("escapees.sh"));
        }
        SupervisorFixture.Result up = sv.cli("up", "-f", f.toString());
        assertEquals(0, up.exit(), up.out() + up.err());
        List<Long> escapees = new ArrayList<>();
        for (String name : List.of("plain", "group", "session", "ghost", "orphan")) {
            escapees.add(dev.runboard.process.Await.pidFile(f.getParent().resolve("escapee-" + name + ".pid"),
                    java.time.Duration.ofSeconds(30)));
        }
        SupervisorFixture.Result down = sv.cli("down", "-f", f.toString());
        assertEquals(0, down.exit(), down.err());
        assertEquals("killed", runsOf("escapees").get(0).path("status").asText());
        for (long pid : escapees) {
            dev.runboard.process.Await.until(java.time.Duration.ofSeconds(5), pid + " gone from /proc",
                    () -> !Files.exists(Path.of("/proc/" + pid)));
        }
    }

    @Test
    void restartsBackoffUserKillsAndSkipsHoldWithNoWindow() throws Exception {
        Path f = file("flaky", StackScenarios.crashTwice());
        SupervisorFixture.Result skipped = sv.cli("up", "-f", f.toString(), "after_broken", "--wait");
        assertEquals(1, skipped.exit(), skipped.out() + skipped.err());
        assertTrue(skipped.err().contains("after_broken skipped: dependency broken will not succeed: failed (exit 3)"), skipped.err());
        assertTrue(skipped.out().contains("skipped   after_broken: dependency broken will not succeed: failed (exit 3)"),
                "up prints the final state with its reason: " + skipped.out());
        assertTrue(sv.cli("list").out().contains("(dependency broken will not succeed: failed (exit 3))"),
                sv.cli("list").out());

        assertEquals(0, sv.cli("up", "-f", f.toString(), "flaky", "steady").exit());
        Await.until(WAIT, "steady to run", () -> sneaky(() -> runsOf("steady").get(0).path("status").asText()).equals("running"));
        String steadyId = runsOf("steady").get(0).path("session_id").asText();
        assertEquals(0, sv.cli("kill", steadyId).exit());

        Await.until(WAIT, "flaky's third run", () -> sneaky(() -> runsOf("flaky").size() == 3
                && runsOf("flaky").get(2).path("status").asText().equals("running")));
        List<JsonNode> runs = runsOf("flaky");
        assertEquals(List.of("failed", "failed", "running"), runs.stream().map(r -> r.path("status").asText()).toList());
        assertEquals(runs.get(1).path("session_id").asText(), runs.get(2).path("previous_run").asText());
        assertEquals(2, runs.get(2).path("restarts").asInt());
        assertTrue(Duration.between(at(runs.get(0), "ended_at"), at(runs.get(1), "started_at")).toMillis() >= 1000);
        assertTrue(Duration.between(at(runs.get(1), "ended_at"), at(runs.get(2), "started_at")).toMillis() >= 2000);
        // Three seconds of backoffs later, the killed one (restart: always, 500 ms backoff) has not come back.
        assertEquals(1, runsOf("steady").size(), "a command the user killed is never restarted");
        assertEquals("killed", runsOf("steady").get(0).path("status").asText());
        assertEquals(0, sv.cli("down", "-f", f.toString()).exit());
    }

    @Test
    void untilEndedExitsOneOnABatchWithALateFailureAndAbortOnFailureStopsTheStack() throws Exception {
        Path f = file("suites", """
                commands:
                  unit: {command: "sleep 0.3", shell: /bin/sh, group: tests}
                  slow: {command: "sleep 1.5; exit 4", shell: /bin/sh, group: tests}
                  db: {command: "exec sleep 60", shell: /bin/sh}
                  api: {command: "exec sleep 61", shell: /bin/sh, depends_on: {db: started}}
                  smoke: {command: "sleep 0.5; exit 5", shell: /bin/sh, depends_on: {api: started}}
                  off: {command: "exec sleep 62", shell: /bin/sh, disabled: true, description: kept for later}
                """);
        SupervisorFixture.Result suites = sv.cli("up", "-f", f.toString(), "tests", "--until-ended");
        assertEquals(1, suites.exit(), suites.out() + suites.err());
        assertTrue(suites.err().contains("runboard up: slow failed (exit 4)"), suites.err());
        assertTrue(suites.out().contains("completed unit"), "final states: " + suites.out());
        assertTrue(suites.out().contains("failed    slow"), "final states: " + suites.out());

        // --abort-on-failure: smoke fails, and the stack it belongs to is stopped before up returns.
        SupervisorFixture.Result aborted = sv.cli("up", "-f", f.toString(), "smoke", "off", "--abort-on-failure");
        assertEquals(1, aborted.exit(), aborted.out() + aborted.err());
        assertTrue(aborted.err().contains("smoke failed (exit 5)") && aborted.err().contains("stopped the stack"), aborted.err());
        assertTrue(aborted.out().contains("disabled  off"), aborted.out());
        assertEquals("killed", runsOf("db").get(0).path("status").asText());
        assertEquals("killed", runsOf("api").get(0).path("status").asText());
        assertTrue(runsOf("off").isEmpty(), "a disabled command gets no session");

        // --no-deps: only what is named, its dependency not started.
        SupervisorFixture.Result alone = sv.cli("up", "-f", f.toString(), "api", "--no-deps", "--wait", "--settle", "300ms");
        assertEquals(0, alone.exit(), alone.out() + alone.err());
        assertEquals(2, runsOf("api").size());
        assertEquals(1, runsOf("db").size(), "db was not started again");

        // --force restarts what runs: the running api is killed, and a new one starts after it ended.
        SupervisorFixture.Result forced = sv.cli("up", "-f", f.toString(), "api", "--no-deps", "--force", "--wait", "--settle", "300ms");
        assertEquals(0, forced.exit(), forced.out() + forced.err());
        List<JsonNode> apis = runsOf("api");
        assertEquals(3, apis.size(), apis.toString());
        JsonNode replaced = apis.stream().filter(a -> a.path("status").asText().equals("killed")
                && a.path("ended_at").isTextual()).max(Comparator.comparing(a -> a.path("ended_at").asText())).orElseThrow();
        JsonNode now = apis.stream().filter(a -> a.path("status").asText().equals("running")).findFirst().orElseThrow();
        assertTrue(!at(now, "started_at").isBefore(at(replaced, "ended_at")), "the new run started after the old one ended");
        assertEquals(0, sv.cli("down", "-f", f.toString()).exit());
    }

    @Test
    void aQueueOfFiveRunsTwoAtATimeInOrderAndAfterWaitsForSuccess() throws Exception {
        assertEquals(0, sv.cli("queue", "q", "--parallel", "2").exit());
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(sv.start("--queue", "q", "--", "sleep", "1.5"));
        }
        String after = sv.start("--after", ids.get(4), "--", "true");
        String listed = sv.cli("list").out();
        assertTrue(listed.contains("queued"), "the list shows the queued ones: " + listed);
        assertEquals(0, sv.cli("wait", after).exit());
        List<JsonNode> jobs = new ArrayList<>();
        for (String id : ids) {
            jobs.add(list().stream().filter(s -> s.path("session_id").asText().equals(id)).findFirst().orElseThrow());
        }
        for (JsonNode a : jobs) {
            assertEquals("completed", a.path("status").asText());
            long overlapping = jobs.stream().filter(b -> !at(b, "started_at").isAfter(at(a, "started_at"))
                    && at(b, "ended_at").isAfter(at(a, "started_at"))).count();
            assertTrue(overlapping <= 2, overlapping + " running at once");
        }
        for (int i = 1; i < 5; i++) {
            assertTrue(!at(jobs.get(i), "started_at").isBefore(at(jobs.get(i - 1), "started_at")), "in order");
        }
        JsonNode a = list().stream().filter(s -> s.path("session_id").asText().equals(after)).findFirst().orElseThrow();
        assertTrue(!at(a, "started_at").isBefore(at(jobs.get(4), "ended_at")), "--after waits for the session's success");
    }

    @Test
    void whatWaitedWhenTheSupervisorDiedIsSkippedByTheNext() throws Exception {
        Path f = file("gate", """
                commands:
                  first:
                    command: exec sleep 60
                    shell: /bin/sh
                    ready: {exec: "test -f open", period: 200ms}
                  second:
                    command: echo never
                    shell: /bin/sh
                    depends_on: {first: ready}
                """);
        assertEquals(0, sv.cli("up", "-f", f.toString(), "second").exit());
        long pid = sv.supervisorPid();
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        Await.until(WAIT, "the supervisor to die", () -> ProcessHandle.of(pid).map(h -> !h.isAlive()).orElse(true));
        // The next client brings a supervisor back: the running one is adopted, the waiting one can never start.
        Await.until(WAIT, "second to be skipped", () -> sneaky(() -> runsOf("second").get(0).path("status").asText())
                .equals("skipped"));
        assertTrue(runsOf("second").get(0).path("reason").asText().contains("the supervisor that was to start it stopped"),
                runsOf("second").get(0).toString());
        assertEquals("running", runsOf("first").get(0).path("status").asText());
        assertEquals(0, sv.cli("kill", runsOf("first").get(0).path("session_id").asText()).exit());
    }

    private interface Check<T> {
        T get() throws Exception;
    }

    private static <T> T sneaky(Check<T> c) {
        try {
            return c.get();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
