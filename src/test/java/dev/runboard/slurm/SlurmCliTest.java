package dev.runboard.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.process.Await;
import dev.runboard.store.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Slurm sessions against a real one-node cluster (.ci/slurm-setup): the job runs runboard's wrapper,
 * so its exit code, deadline and kill are the wrapper's; Slurm's states fill in the rest (pending
 * with its reason, cancelled, a node lost). Every check is what a user sees: exit codes, show's JSON,
 * squeue, /proc.
 */
class SlurmCliTest {
    private static final Duration LONG = Duration.ofSeconds(90);

    @RegisterExtension
    static final SlurmCluster SLURM = new SlurmCluster();

    @TempDir
    Path dataDir;
    @TempDir
    Path project;

    @Test
    void execRunsTheCommandAsAJobAndExitsWithItsCodeAndOutput() throws Exception {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--slurm", "--env", "RB_SECRET=s3cret", "--",
                "echo x; echo job=$SLURM_JOB_ID secret=$RB_SECRET; exit 3");
        assertEquals(3, r.exit(), r.out() + r.err());
        JsonNode end = Json.mapper().readTree(r.out());
        String job = end.path("slurm").path("job_id").asText();
        assertTrue(job.matches("[0-9]+"), end.toString());
        assertEquals("x\njob=" + job + " secret=s3cret\n", end.path("output").asText(), end.toString());
        assertEquals("failed", end.path("status").asText());
        assertEquals(SLURM.node, end.path("slurm").path("node").asText(), end.toString());
        assertEquals("debug", end.path("slurm").path("partition").asText(), end.toString());
        // The environment reached the job through the wrapper's private file, which is gone; never through the script.
        Path folder = dataDir.resolve("sessions").resolve(end.path("session_id").asText());
        if (Files.exists(folder.resolve(JobScript.SCRIPT))) {
            assertFalse(Files.readString(folder.resolve(JobScript.SCRIPT)).contains("s3cret"));
        }
        assertFalse(Files.exists(folder.resolve(JobScript.ENVIRONMENT)), "the wrapper deleted the environment file");
        assertFalse(SLURM.queued(job), "the job has left squeue");
    }

    @Test
    void aTimeoutEndsTheJobWith124AndTheJobLeavesSqueue() throws Exception {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--slurm", "--timeout", "2", "--", "sleep 60");
        assertEquals(124, r.exit(), r.out() + r.err());
        JsonNode end = Json.mapper().readTree(r.out());
        assertEquals("timeout", end.path("status").asText(), end.toString());
        String job = end.path("slurm").path("job_id").asText();
        Await.until(LONG, "job " + job + " to leave squeue", () -> !SLURM.queuedQuietly(job));
        // The deadline counted from the job's start: the session's time is the timeout and the grace at most, give or take Slurm's start.
        assertTrue(end.path("elapsed_seconds").asDouble() >= 2, end.toString());
    }

    @Test
    void theHangWatchdogDoesNotCountTheTimeSlurmHoldsTheJob() throws Exception {
        // Held for 3 s (and until Slurm's scheduler next looks), silent all that time: not a hang. Once it runs it
        // prints at once and ends.
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--slurm", "--sbatch=--begin=now+3",
                "--hang-after", "2", "--hang-action", "kill", "--", "echo hi");
        assertEquals(0, r.exit(), r.out() + r.err());
        JsonNode end = Json.mapper().readTree(r.out());
        assertEquals("hi\n", end.path("output").asText(), end.toString());
        assertTrue(end.path("events").toString().contains("pending"), "it was held first: " + end.path("events"));
    }

    @Test
    void aHeldJobIsPendingWithSlurmsReasonDoesNotTimeOutSurvivesTheSupervisorAndAKillCancelsIt() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String heldId = fx.start("--slurm", "--sbatch=--begin=now+3600", "--timeout", "2", "--",
                    "echo never");
            String runningId = fx.start("--slurm", "--", "echo started; sleep 4; echo done; exit 7");
            Await.until(LONG, "the held job pending with Slurm's reason", () -> {
                JsonNode s = fx.show(heldId);
                return s.path("status").asText().equals("pending") && s.path("reason").asText().contains("BeginTime");
            });
            Await.until(LONG, "the other job running on the node, its first line out",
                    () -> fx.show(runningId).path("output").asText().contains("started"));
            JsonNode run = fx.show(runningId);
            // Its output is here, so it reads running, even when squeue last answered just before it started.
            assertEquals("running", run.path("status").asText(), run.toString());
            Await.until(LONG, "Slurm's own word, RUNNING on the node, from squeue's next answer", () -> {
                JsonNode slurm = fx.show(runningId).path("slurm");
                return slurm.path("state").asText().equals("RUNNING") && SLURM.node.equals(slurm.path("node").asText());
            });

            long first = fx.supervisorPid();
            ProcessHandle.of(first).ifPresent(ProcessHandle::destroyForcibly); // the owner dies while both wait and run
            SupervisorFixture.Result waited = fx.cli("wait", runningId); // a new supervisor re-attaches by job id
            assertEquals(7, waited.exit(), waited.out() + waited.err());
            JsonNode ended = fx.show(runningId);
            assertEquals("started\ndone\n", ended.path("output").asText(), ended.toString());
            assertTrue(fx.supervisorPid() != first, "another supervisor answers");

            // Waiting longer than its timeout (and the engine's backstop) in Slurm's queue is no timeout: the deadline
            // counts from the job's start. Measured on the session's own recorded time.
            Await.until(LONG, "the held job to have waited 8 s", () -> fx.show(heldId).path("elapsed_seconds").asDouble() >= 8);
            SLURM.assertStillHeldThenAKillCancelsIt(fx, heldId);
        }
    }

    @Test
    void killingARunningJobLeavesNoJobAndNoProcess() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--slurm", "--", "sh -c 'sleep 300 & sleep 300 & echo up; wait'");
            Await.until(LONG, "the job's tree up", () -> fx.show(id).path("output").asText().contains("up")
                    && SlurmCluster.liveTagged(id).size() >= 3);
            String job = fx.show(id).path("slurm").path("job_id").asText();
            SupervisorFixture.Result killed = fx.cli("kill", id);
            assertEquals(0, killed.exit(), killed.out() + killed.err());
            fx.cli("wait", id);
            JsonNode end = fx.show(id);
            assertEquals("killed", end.path("status").asText(), end.toString());
            assertEquals(List.of(), SlurmCluster.liveTagged(id), "no process of the job is left");
            Await.until(LONG, "job " + job + " to leave squeue", () -> !SLURM.queuedQuietly(job));
        }
    }

    @Test
    void aRunningJobShowsItsNodesCpuMemoryAndTreeAndPausesAndResumesLikeALocalSession() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--slurm", "--", "sh -c 'yes > /dev/null & sleep 300'");
            // Sampled by the job's wrapper on its node (once a second), not by this host's monitor: a node's /proc is not ours.
            JsonNode[] seen = new JsonNode[1];
            try {
                Await.until(LONG, "yes busy beside sleep in show's usage", () -> {
                    seen[0] = fx.show(id).path("usage");
                    JsonNode yes = process(seen[0], "yes");
                    JsonNode sleep = process(seen[0], "sleep 300");
                    return yes != null && yes.path("cpu_percent").asDouble() >= 15 && sleep != null
                            && sleep.path("rss_bytes").asLong() > 0;
                });
            } catch (AssertionError e) {
                throw new AssertionError(e.getMessage() + "; the last usage: " + seen[0], e);
            }
            assertTrue(seen[0].path("cpu_percent").asDouble() >= process(seen[0], "yes").path("cpu_percent").asDouble(),
                    "the tree's CPU % sums its processes': " + seen[0]);
            assertTrue(seen[0].path("rss_bytes").asLong() > 0, seen[0].toString());
            long yes = process(seen[0], "yes").path("pid").asLong();

            // Pause: the command's whole group stops on the node (the wrapper, which holds the deadline, runs on).
            SupervisorFixture.Result paused = fx.cli("signal", id, "STOP");
            assertEquals(0, paused.exit(), paused.out() + paused.err());
            Await.until(LONG, "the job's command stopped and the session paused", () -> SlurmCluster.stopped(yes)
                    && "paused".equals(fx.show(id).path("status").asText()));
            SupervisorFixture.Result resumed = fx.cli("signal", id, "CONT");
            assertEquals(0, resumed.exit(), resumed.out() + resumed.err());
            Await.until(LONG, "the job's command running again", () -> !SlurmCluster.stopped(yes)
                    && "running".equals(fx.show(id).path("status").asText()));

            assertEquals(0, fx.cli("kill", id).exit());
            fx.cli("wait", id);
            assertEquals(List.of(), SlurmCluster.liveTagged(id), "no process of the job is left");
        }
    }

    @Test
    void theRunawayGuardWatchesAJobsMemoryOnItsNode() throws Exception {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--slurm", "--max-rss", "20M", "--grace", "0.2",
                "--timeout", "60", // a guard that never fires ends it timeout, not killed, within a minute
                "--", "exec perl -e '$x = \"x\" x (64 << 20); sleep 300'");
        JsonNode end = Json.mapper().readTree(r.out());
        assertEquals("killed", end.path("status").asText(), end.toString());
        assertTrue(r.err().contains("runboard: guard: runaway guard: RSS "), r.err());
        assertFalse(SLURM.queued(end.path("slurm").path("job_id").asText()), "the job has left squeue");
    }

    @Test
    void aNodeSetDownEndsItsRunningJobUnknownWithSlurmsReason() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--slurm", "--", "echo up; sleep 300");
            Await.until(LONG, "the job running", () -> fx.show(id).path("output").asText().contains("up"));
            SLURM.assertANodeSetDownEndsTheJobUnknown(fx, id);
        }
    }

    @Test
    void aJobSlurmRefusesIsOneLineExit2AndNothingIsCreated() throws Exception {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--slurm", "--sbatch=--partition=nosuch", "--",
                "true");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("sbatch refused the job") && r.err().contains("nosuch"), r.err());
        Path sessions = dataDir.resolve("sessions");
        assertTrue(!Files.exists(sessions) || Files.list(sessions).findAny().isEmpty(), "no session was made");
    }

    /**
     * An sbatch argument that sets what runboard sets for every job (where the output goes, an array, a requeue, the
     * script, sbatch returning at once) is refused in one line naming the option and why, however sbatch would read it; others pass to sbatch.
     */
    @Test
    void anSbatchArgumentThatSetsWhatRunboardSetsIsRefusedAndOthersPass() throws Exception {
        java.util.Map<String, String> refused = new java.util.LinkedHashMap<>();
        refused.put("--output=mine.log", "--output");
        refused.put("-o", "--output");
        refused.put("-omine.log", "--output");
        refused.put("--out=mine.log", "--output");
        refused.put("--error=mine.err", "--error");
        refused.put("--open-mode=truncate", "--open-mode");
        refused.put("--array=1-3", "--array");
        refused.put("-a1-3", "--array");
        refused.put("--requeue", "--requeue");
        refused.put("--wrap=true", "--wrap");
        refused.put("--wait", "--wait");
        refused.put("-W", "--wait");
        refused.put("--test-only", "--test-only");
        for (java.util.Map.Entry<String, String> a : refused.entrySet()) {
            SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--slurm", "--sbatch=" + a.getKey(), "--", "true");
            assertEquals(2, r.exit(), a.getKey() + ": " + r.out() + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains("is runboard's to set (" + a.getValue() + ")"), r.err());
        }
        Path sessions = dataDir.resolve("sessions");
        assertTrue(!Files.exists(sessions) || Files.list(sessions).findAny().isEmpty(), "no session was made");
        SupervisorFixture.Result passed = SupervisorFixture.cli(dataDir, "exec", "--slurm", "--sbatch=--no-requeue",
                "--sbatch=--export=ALL", "--sbatch=--partition=other", "--", "echo ran");
        assertEquals(0, passed.exit(), passed.out() + passed.err());
        JsonNode end = Json.mapper().readTree(passed.out());
        assertEquals("ran\n", end.path("output").asText(), end.toString());
        assertEquals("other", end.path("slurm").path("partition").asText(), "the user's --partition reached sbatch: " + end);
    }

    @Test
    void noSbatchOnPathIsOneLineExit2AndNothingIsCreated() throws Exception {
        // exec in a JVM of its own whose PATH has perl and sh but no Slurm.
        Path bin = Files.createDirectories(dataDir.resolve("bin-without-slurm"));
        for (String tool : List.of("perl", "sh")) {
            Files.createSymbolicLink(bin.resolve(tool), Path.of("/usr/bin", tool).toRealPath());
        }
        java.util.Map<String, String> env = new java.util.HashMap<>();
        env.put("PATH", bin.toString());
        env.put("SLURM_CONF", null);
        dev.runboard.engine.ThinClient.Run r = execInItsOwnJvm(env);
        assertEquals(2, r.exit(), r.text() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("sbatch could not be run") && r.err().contains("leave out --slurm"), r.err());
        assertNoSessionMade();
    }

    /**
     * A slurm.conf that is not there, is a folder, or is not Slurm's, or none at all: one line that names it, at once
     * (Slurm's own commands retry a missing file for 60 s), and no session.
     */
    @Test
    void aSlurmConfigurationThatCannotBeUsedIsOneLineAtOnceAndNothingIsCreated() throws Exception {
        Path garbage = Files.writeString(dataDir.resolve("garbage.conf"), "nonsense\n");
        java.util.Map<String, String> said = new java.util.LinkedHashMap<>();
        said.put(dataDir.resolve("missing/slurm.conf").toString(), "which does not exist: point it at your cluster's slurm.conf");
        said.put(dataDir.toString(), "which cannot be read (a folder)");
        said.put(garbage.toString(), "sbatch refused the job: Parse error in file " + garbage + " line 1");
        if (!Files.exists(Path.of("/etc/slurm/slurm.conf"))) { // Slurm's default place has none either
            said.put(null, "Slurm finds no configuration here");
        }
        for (java.util.Map.Entry<String, String> c : said.entrySet()) {
            java.util.Map<String, String> env = new java.util.HashMap<>();
            env.put("SLURM_CONF", c.getKey());
            long started = System.nanoTime();
            dev.runboard.engine.ThinClient.Run r = execInItsOwnJvm(env);
            long seconds = java.util.concurrent.TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
            assertEquals(2, r.exit(), c.getKey() + ": " + r.text() + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains(c.getValue()), c.getKey() + ": " + r.err());
            assertTrue(seconds < 30, "said in " + seconds + " s, not after Slurm's 60 s of retries: " + r.err());
            assertNoSessionMade();
        }
    }

    /** {@code runboard exec --slurm -- true} as a user's shell runs it (no supervisor: its own JVM), {@code env} changed. */
    private dev.runboard.engine.ThinClient.Run execInItsOwnJvm(java.util.Map<String, String> env) throws Exception {
        return dev.runboard.engine.ThinClient.of(dataDir.resolve("data")).in(null, env)
                .run("exec", "--slurm", "--cwd", "/tmp", "--", "true");
    }

    private void assertNoSessionMade() throws IOException {
        Path sessions = dataDir.resolve("data").resolve("sessions");
        assertTrue(!Files.exists(sessions) || Files.list(sessions).findAny().isEmpty(), "no session was made");
    }

    @Test
    void slurmInRunboardYamlRunsTheCommandAsAJobWithItsSbatchArguments() throws Exception {
        Files.writeString(project.resolve("runboard.yaml"), String.join("\n",
                "commands:",
                "  train:",
                "    command: echo trained; exit 4",
                "    slurm: {sbatch: [--partition=other]}",
                ""));
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            SupervisorFixture.Result up = fx.cli("up", "--file", project.resolve("runboard.yaml").toString(), "train");
            assertEquals(0, up.exit(), up.out() + up.err());
            Await.until(LONG, "train's job to end", () -> sessionIds().size() == 1
                    && fx.show(sessionIds().get(0)).path("status").asText().equals("failed"));
            JsonNode end = fx.show(sessionIds().get(0));
            assertEquals("trained\n", end.path("output").asText(), end.toString());
            assertEquals(4, end.path("exit_code").asInt(), end.toString());
            assertEquals("other", end.path("slurm").path("partition").asText(), end.toString());
        }
    }

    private List<String> sessionIds() {
        try (var s = Files.list(dataDir.resolve("sessions"))) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.matches("[0-9].*")).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }


    /** The process running {@code command} in show's usage tree, or null. */
    private static JsonNode process(JsonNode usage, String command) {
        for (JsonNode p : usage.path("processes")) {
            if (p.path("command").asText().equals(command)) {
                return p;
            }
        }
        return null;
    }
}
