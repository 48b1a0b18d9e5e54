package dev.runboard.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.process.Await;
import dev.runboard.remote.SshSessions;
import dev.runboard.remote.SshdExtension;
import dev.runboard.store.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --host LOGIN --slurm}: Slurm's commands run on the login host (the test sshd's {@code rb-remote}, as its
 * second user) through the ssh layer, the job's folder is runboard's folder on that host, and its output and status
 * come back as an ssh session's do. The node is this machine, so squeue, /proc and the host's folder show what a
 * user would find.
 */
class SlurmLoginHostTest {
    private static final Duration LONG = Duration.ofSeconds(90);

    @RegisterExtension
    static final SlurmCluster SLURM = new SlurmCluster();
    @RegisterExtension
    static final SshdExtension SSHD = new SshdExtension().namedToRunboard();

    @TempDir
    Path dataDir;

    @AfterEach
    void forgetTheHostsFolder() throws Exception {
        SSHD.get().forget(dataDir);
    }

    @Test
    void execSubmitsOnTheLoginHostAsItsUserAndExitsWithTheJobsCodeAndOutput() throws Exception {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-remote", "--slurm", "--cwd", "/tmp",
                "--env", "RB_SECRET=s3cret", "--", "echo x; echo job=$SLURM_JOB_ID user=$(id -un) secret=$RB_SECRET; exit 3");
        assertEquals(3, r.exit(), r.out() + r.err());
        JsonNode end = Json.mapper().readTree(r.out());
        String job = end.path("slurm").path("job_id").asText();
        assertTrue(job.matches("[0-9]+"), end.toString());
        assertEquals("x\njob=" + job + " user=" + SSHD.get().user + " secret=s3cret\n", end.path("output").asText(),
                end.toString());
        assertEquals("failed", end.path("status").asText(), end.toString());
        assertEquals(SLURM.node, end.path("slurm").path("node").asText(), end.toString());
        assertEquals("debug", end.path("slurm").path("partition").asText(), end.toString());
        // Submitted there: Slurm has the job as the login host's user, not as this runboard's.
        assertEquals(SSHD.get().user, SLURM.slurm("squeue", "-h", "-t", "all", "-j", job, "-o", "%u").out().strip());
        assertFalse(SLURM.queued(job), "the job has left squeue");
        assertFalse(Files.exists(hostFolder(end.path("session_id").asText())), "the job's folder on the host is tidied");
    }

    @Test
    void aLoginHostThatRefusesTheLoginIsOneLineExit2AndNothingIsCreated() throws Exception {
        SupervisorFixture.Result r = SupervisorFixture.cli(dataDir, "exec", "--host", "rb-badauth", "--slurm", "--cwd", "/tmp",
                "--", "true");
        assertEquals(2, r.exit(), r.out() + r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("rb-badauth refused the login"), r.err());
        Path sessions = dataDir.resolve("sessions");
        try (var listed = Files.exists(sessions) ? Files.list(sessions) : java.util.stream.Stream.<Path>empty()) {
            assertTrue(listed.findAny().isEmpty(), "no session was made");
        }
    }

    @Test
    void aRunningJobShowsItsTreeOnTheNodePausesAndResumesAndAKillLeavesNoJobAndNoProcess() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--host", "rb-remote", "--slurm", "--cwd", "/tmp", "--",
                    "sh -c 'sleep 300 & sleep 300 & echo up; wait'");
            // The output comes by the session's stream, Slurm's state by the next squeue: both are awaited.
            Await.until(LONG, "the job's tree up, running, its first line here", () -> SlurmCluster.liveTagged(id).size() >= 3
                    && fx.show(id).path("output").asText().contains("up")
                    && fx.show(id).path("status").asText().equals("running"));
            JsonNode running = fx.show(id);
            assertEquals("rb-remote", running.path("host").asText(), running.toString());
            assertEquals("connected", running.path("connection").asText(), running.toString());
            String job = running.path("slurm").path("job_id").asText();
            // An ssh session on the same host beside the job: both streams ride on one master connection (one ssh
            // layer per supervisor, which the login host shares), not one per target.
            String besideId = fx.start("--host", "rb-remote", "--cwd", "/tmp", "--", "echo beside; sleep 300");
            Await.until(LONG, "the ssh session running, its line here",
                    () -> fx.show(besideId).path("output").asText().contains("beside"));
            List<String> streams = outputStreams(fx.supervisorPid());
            assertEquals(2, streams.size(), "the supervisor's output streams from rb-remote: " + streams);
            assertEquals(1, streams.stream().distinct().count(), "over one master: " + streams);
            assertEquals(0, fx.cli("kill", besideId).exit());
            // The wrapper's samples on the node, read through the login host's folder.
            JsonNode[] usage = new JsonNode[1];
            Await.until(LONG, "both sleeps in show's usage", () -> {
                usage[0] = fx.show(id).path("usage");
                return usage[0].path("processes").findValuesAsText("command").stream().filter("sleep 300"::equals).count() == 2;
            });
            long sleep = usage[0].path("processes").findParents("command").stream()
                    .filter(p -> p.path("command").asText().equals("sleep 300")).findFirst().orElseThrow().path("pid").asLong();
            assertEquals(0, fx.cli("signal", id, "STOP").exit());
            Await.until(LONG, "the job's command stopped, the session paused", () -> SlurmCluster.stopped(sleep)
                    && "paused".equals(fx.show(id).path("status").asText()));
            assertEquals(0, fx.cli("signal", id, "CONT").exit());
            Await.until(LONG, "the job's command running again", () -> !SlurmCluster.stopped(sleep)
                    && "running".equals(fx.show(id).path("status").asText()));
            SupervisorFixture.Result killed = fx.cli("kill", id);
            assertEquals(0, killed.exit(), killed.out() + killed.err());
            fx.cli("wait", id);
            JsonNode end = fx.show(id);
            assertEquals("killed", end.path("status").asText(), end.toString());
            // The wrapper's own kill, its report read back from the host's folder (not scancel's alone).
            assertTrue(end.path("kill_report").toString().contains("in Slurm job " + job), end.toString());
            assertFalse(end.path("kill_report").toString().contains("did not answer"), end.toString());
            assertEquals(List.of(), SlurmCluster.liveTagged(id), "no process of the job is left");
            Await.until(LONG, "job " + job + " to leave squeue", () -> !SLURM.queuedQuietly(job));
        }
    }

    /** Slurm's word on the job comes through the login host's squeue, and its end is the same as a job's here. */
    @Test
    void aNodeSetDownEndsItsRunningJobUnknownWithSlurmsReason() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--host", "rb-remote", "--slurm", "--cwd", "/tmp", "--", "echo up; sleep 300");
            Await.until(LONG, "the job running, its first line here", () -> fx.show(id).path("output").asText().contains("up"));
            SLURM.assertANodeSetDownEndsTheJobUnknown(fx, id);
            Await.until(LONG, "no process of the job left on the node (Slurm ends a down node's jobs)",
                    () -> SlurmCluster.liveTagged(id).isEmpty());
        }
    }

    @Test
    void aHeldJobIsPendingWithSlurmsReasonARunningOneSurvivesTheSupervisorAndAKillCancelsTheHeldOne() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String heldId = fx.start("--host", "rb-remote", "--slurm", "--sbatch=--begin=now+3600",
                    "--cwd", "/tmp", "--", "echo never");
            String runningId = fx.start("--host", "rb-remote", "--slurm", "--cwd", "/tmp", "--",
                    "echo started; sleep 4; echo done; exit 7");
            Await.until(LONG, "the held job pending with Slurm's reason", () -> {
                JsonNode s = fx.show(heldId);
                return s.path("status").asText().equals("pending") && s.path("reason").asText().contains("BeginTime");
            });
            Await.until(LONG, "the other job running, its first line here", () -> fx.show(runningId).path("output").asText()
                    .contains("started") && fx.show(runningId).path("slurm").path("state").asText().equals("RUNNING"));
            JsonNode run = fx.show(runningId);
            assertEquals(SLURM.node, run.path("slurm").path("node").asText(), run.toString());

            long first = fx.supervisorPid();
            ProcessHandle.of(first).ifPresent(ProcessHandle::destroyForcibly); // the owner dies while both wait and run
            SupervisorFixture.Result waited = fx.cli("wait", runningId); // a new supervisor re-attaches through the host
            assertEquals(7, waited.exit(), waited.out() + waited.err());
            assertEquals("started\ndone\n", fx.show(runningId).path("output").asText());
            assertTrue(fx.supervisorPid() != first, "another supervisor answers");

            SLURM.assertStillHeldThenAKillCancelsIt(fx, heldId);
        }
    }

    /** The login host goes silent mid-job (its sshd stopped, new connections refused): the job runs on on its node. */
    @Test
    void aLoginHostOutOfReachMidJobReadsDisconnectedAndTheJobsOutputComesBackExact() throws Exception {
        try (SupervisorFixture fx = new SupervisorFixture(dataDir)) {
            String id = fx.start("--host", "rb-remote", "--slurm", "--cwd", "/tmp", "--",
                    "i=0; while [ $i -lt 120 ]; do i=$((i+1)); echo line $i; sleep 0.05; done; exit 5");
            Await.until(LONG, "the job running, its first lines here", () -> fx.show(id).path("output").asText().contains("line 5\n"));
            Instant cut = Instant.now();
            List<ProcessHandle> stopped = SSHD.get().blackhole();
            try {
                Await.until(LONG, "the session to read disconnected",
                        () -> "disconnected".equals(fx.show(id).path("connection").asText()));
                Duration shownAfter = Duration.between(cut, Instant.now());
                JsonNode out = fx.show(id);
                assertTrue(shownAfter.compareTo(Duration.ofSeconds(10)) <= 0, "disconnected " + shownAfter.toMillis()
                        + " ms after the login host went silent: " + out);
                assertEquals("running", out.path("status").asText(), "the job runs on on its node: " + out);
                Instant over = cut.plusSeconds(5);
                Await.until(LONG, "the outage's 5 s to pass", () -> Instant.now().isAfter(over));
            } finally {
                SSHD.get().lift(stopped);
            }
            SupervisorFixture.Result waited = fx.cli("wait", id);
            assertEquals(5, waited.exit(), waited.out() + waited.err());
            JsonNode end = fx.show(id);
            StringBuilder expected = new StringBuilder();
            for (int i = 1; i <= 120; i++) {
                expected.append("line ").append(i).append('\n');
            }
            assertEquals(expected.toString(), Files.readString(Path.of(end.path("raw_output").asText())),
                    "every line once, in order: " + end.path("events"));
            assertTrue(end.path("events").findValuesAsText("message").stream().anyMatch(m -> m.startsWith("connected to rb-remote again")
                    && m.contains("had waited on the host")), "an event says the link came back and from where: " + end.path("events"));
        }
    }

    /** The session's folder on the login host (runboard's folder there for this data dir). */
    private Path hostFolder(String sessionId) throws IOException {
        return SSHD.get().home().resolve(".cache/runboard-remote/" + SshSessions.clientIdFor(dataDir) + "/s/" + sessionId);
    }

    /** The supervisor's ssh calls that run the host helper's output stream ({@code follow}), as /proc shows them. */
    /** The control path of each of the supervisor's output streams from rb-remote (one per session it follows). */
    private static List<String> outputStreams(long supervisor) {
        return ProcessHandle.of(supervisor).orElseThrow().descendants().map(p -> {
            try {
                return Files.readString(Path.of("/proc/" + p.pid() + "/cmdline")).replace('\0', ' ');
            } catch (java.io.IOException gone) {
                return "";
            }
        }).filter(argv -> argv.startsWith("ssh ") && argv.contains("rb-remote") && argv.contains("'follow'"))
                .map(argv -> argv.replaceAll(".*ControlPath=(\\S+).*", "$1")).toList();
    }

}
