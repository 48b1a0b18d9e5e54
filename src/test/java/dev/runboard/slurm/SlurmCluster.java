package dev.runboard.slurm;

import dev.runboard.testing.CrossForkLock;
import dev.runboard.testing.Exclusive;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private one-node Slurm cluster for one test class, as .ci/slurm-setup makes it (its own munged,
 * slurmctld and slurmd, every file in a temp folder): {@code @RegisterExtension static final
 * SlurmCluster SLURM = new SlurmCluster();} starts it before the class and stops exactly what it
 * started after it. Classes in other forks run theirs at the same time: each cluster has its own
 * ports, daemons, state and spool in its folder, so this host's name in two of them is two nodes to
 * Slurm (a node set down in one is up in the other). The CLI in-process and the supervisor it starts
 * find it by {@value SlurmCommand#CONF_PROPERTY}; the test's own squeue/scontrol calls by {@link
 * #run}. Skipped, with the reason, where no cluster can run: not root (slurmd runs jobs as their
 * users), or Slurm cannot be installed.
 */
final class SlurmCluster implements BeforeAllCallback, AfterAllCallback {
    private Path dir;
    private String conf;

    /** The cluster's node (this host's short name, as slurm.conf names it). */
    String node;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "a Slurm cluster needs root (slurmd starts jobs as their users): Slurm tests skipped");
        Path setup = Path.of(".ci/slurm-setup").toAbsolutePath();
        try (AutoCloseable installing = CrossForkLock.hold(Exclusive.PACKAGES)) {
            run(List.of("bash", setup.toString()));
        }
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/sbin/slurmctld")) && Files.isExecutable(Path.of("/usr/sbin/munged")),
                "Slurm (slurm-wlm, munge) is not installed and could not be: Slurm tests skipped");
        dir = Files.createTempDirectory("rb-slurm");
        Result started = run(List.of("bash", setup.toString(), "start", dir.toString()));
        if (started.exit() != 0) {
            throw new IllegalStateException("the test cluster did not start: " + started.out());
        }
        String last = started.out().strip().lines().reduce((a, b) -> b).orElse("");
        conf = last.substring(last.indexOf('=') + 1);
        node = run(List.of("hostname", "-s")).out().strip();
        System.setProperty(SlurmCommand.CONF_PROPERTY, conf);
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        System.clearProperty(SlurmCommand.CONF_PROPERTY);
        if (dir != null) {
            run(List.of("bash", Path.of(".ci/slurm-setup").toAbsolutePath().toString(), "stop", dir.toString()));
            run(List.of("rm", "-rf", dir.toString()));
        }
    }

    record Result(int exit, String out) {
    }

    /** A Slurm command (squeue, scontrol, scancel) against this cluster: its exit code, and its output with its errors. */
    Result slurm(String... argv) throws IOException, InterruptedException {
        return run(List.of(argv));
    }

    private Result run(List<String> argv) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(argv)).redirectErrorStream(true);
        if (conf != null) {
            pb.environment().put("SLURM_CONF", conf);
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, out);
        }
        return new Result(p.exitValue(), out);
    }

    /** The job's state as squeue says it (all states, while Slurm keeps the job), or "" once Slurm no longer knows it. */
    String state(String jobId) throws IOException, InterruptedException {
        Result r = slurm("squeue", "-h", "-t", "all", "-j", jobId, "-o", "%T");
        return r.exit() == 0 ? r.out().strip() : "";
    }

    /** Whether squeue's default view (pending, running, completing) still lists the job. */
    boolean queued(String jobId) throws IOException, InterruptedException {
        Result r = slurm("squeue", "-h", "-j", jobId, "-o", "%i");
        return r.exit() == 0 && !r.out().isBlank();
    }

    /**
     * A job Slurm holds (its own {@code PENDING}), read {@code pending} by runboard, is cancelled by {@code runboard
     * kill}: it ends killed, "cancelled before it started", and leaves Slurm's queue. Either target (here or through
     * a login host) keeps this promise.
     */
    void assertStillHeldThenAKillCancelsIt(dev.runboard.engine.SupervisorFixture fx, String heldId) throws Exception {
        com.fasterxml.jackson.databind.JsonNode stillHeld = fx.show(heldId);
        org.junit.jupiter.api.Assertions.assertEquals("pending", stillHeld.path("status").asText(), stillHeld.toString());
        String heldJob = stillHeld.path("slurm").path("job_id").asText();
        org.junit.jupiter.api.Assertions.assertEquals("PENDING", state(heldJob));
        dev.runboard.engine.SupervisorFixture.Result killed = fx.cli("kill", heldId);
        org.junit.jupiter.api.Assertions.assertEquals(0, killed.exit(), killed.out() + killed.err());
        fx.cli("wait", heldId);
        com.fasterxml.jackson.databind.JsonNode cancelled = fx.show(heldId);
        org.junit.jupiter.api.Assertions.assertEquals("killed", cancelled.path("status").asText(), cancelled.toString());
        org.junit.jupiter.api.Assertions.assertEquals("cancelled before it started", cancelled.path("reason").asText(),
                cancelled.toString());
        org.junit.jupiter.api.Assertions.assertFalse(queued(heldJob), "the job is out of Slurm's queue");
    }

    /**
     * A job of the session running on the node, the node set down under it (Slurm's NODE_FAIL): the session ends
     * {@code unknown} with Slurm's reason and no exit code, whichever target followed it (here or through a login
     * host). The node is resumed after, and awaited back, whatever happened.
     */
    void assertANodeSetDownEndsTheJobUnknown(dev.runboard.engine.SupervisorFixture fx, String id) throws Exception {
        try {
            Result down = slurm("scontrol", "update", "nodename=" + node, "state=down", "reason=test");
            org.junit.jupiter.api.Assertions.assertEquals(0, down.exit(), down.out());
            fx.cli("wait", id);
            com.fasterxml.jackson.databind.JsonNode end = fx.show(id);
            org.junit.jupiter.api.Assertions.assertEquals("unknown", end.path("status").asText(), end.toString());
            org.junit.jupiter.api.Assertions.assertTrue(end.path("reason").asText().contains("NODE_FAIL"), end.toString());
            org.junit.jupiter.api.Assertions.assertTrue(end.path("exit_code").isNull(), "no made-up code: " + end);
        } finally {
            slurm("scontrol", "update", "nodename=" + node, "state=resume");
            dev.runboard.process.Await.until(java.time.Duration.ofSeconds(90), "the node back", () -> {
                try {
                    return slurm("sinfo", "-h", "-N", "-o", "%t").out().lines()
                            .allMatch(l -> l.matches("(idle|mix|alloc).*")); // a line per partition the node is in
                } catch (IOException | InterruptedException e) {
                    return false;
                }
            });
        }
    }

    /** Whether job {@code job} is in squeue; true when squeue cannot be asked (a wait for it to leave goes on). */
    boolean queuedQuietly(String job) {
        try {
            return queued(job);
        } catch (IOException | InterruptedException e) {
            return true;
        }
    }

    /** Whether the process is stopped (T in /proc: the node is this machine). */
    static boolean stopped(long pid) {
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + pid + "/stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("T");
        } catch (IOException e) {
            return false;
        }
    }

    /** This machine's live processes carrying the session's tag (the node is this machine). */
    static java.util.List<Long> liveTagged(String id) {
        dev.runboard.process.OsProcesses os = dev.runboard.process.OsProcesses.forThisMachine();
        return os.snapshot().all().stream().filter(dev.runboard.process.ProcInfo::alive)
                .filter(p -> os.hasEnvEntry(p.pid(), "RUNBOARD_SESSION=" + id)).map(dev.runboard.process.ProcInfo::pid).toList();
    }
}
