package dev.runboard.slurm;

import dev.runboard.process.SessionWrapper;
import dev.runboard.remote.LoginHost;
import dev.runboard.session.Session;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Jobs submitted on a login host ({@code --host LOGIN --slurm}): Slurm's commands run there over the ssh layer's
 * connection, and the job's folder is the one runboard keeps for the session on that host (the remote helper's
 * {@code s/ID}, in the login user's home, which a cluster's nodes share). The output is mirrored here as an ssh
 * session's is, and the status copied into the session's folder once every byte is here. One poll is one ssh call:
 * squeue, then the facts of every followed job's folder.
 */
final class LoginSite implements JobSite {
    /** The wrapper's exit-status file in the job's folder (the name the remote helper's poll and stream read). */
    static final String STATUS = "status";
    /** The job's output in its folder (the name the remote helper's poll and stream read). */
    static final String OUTPUT = "out";
    /** The folder's files a poll looks at (it reads the usage file's content). */
    private static final List<String> LOOKED_AT = List.of(JobScript.ENVIRONMENT, SessionStore.COMMAND, STATUS,
            SessionWrapper.USAGE_FILE);

    private final LoginHost host;

    LoginSite(LoginHost host) {
        this.host = host;
    }

    @Override
    public void prepare() {
        host.prepare();
    }

    @Override
    public SlurmCommand.Result run(List<String> argv) throws IOException {
        return result(argv, host.run(slurmEnvironment(), argv));
    }

    /** A command the login host's shell could not find is said as a local one that could not be started. */
    private SlurmCommand.Result result(List<String> argv, LoginHost.Result r) throws IOException {
        if (r.exit() == 127) {
            throw new IOException(argv.get(0) + " is not on PATH on host " + host.host());
        }
        return new SlurmCommand.Result(r.exit(), r.out(), r.err());
    }

    /** Slurm's configuration for the commands on the host: the one runboard was told of ({@value SlurmCommand#CONF_PROPERTY}), else the host's own. */
    private static Map<String, String> slurmEnvironment() {
        String conf = System.getProperty(SlurmCommand.CONF_PROPERTY);
        return conf == null || conf.isBlank() ? Map.of() : Map.of("SLURM_CONF", conf);
    }

    /** The login host's squeue prints its times in UTC ({@code TZ=UTC}): its own zone need not be this machine's. */
    @Override
    public java.time.ZoneId squeueZone() {
        return java.time.ZoneOffset.UTC;
    }

    @Override
    public Look look(List<String> squeue, List<Job> jobs) throws IOException {
        Map<String, String> env = new LinkedHashMap<>(slurmEnvironment());
        env.put("TZ", "UTC");
        LoginHost.Look look = host.look(jobs.stream().map(j -> j.session().id()).toList(), LOOKED_AT,
                Set.of(SessionWrapper.USAGE_FILE), env, squeue);
        if (look.run() == null) {
            throw new IOException("host " + host.host() + ": squeue gave no answer");
        }
        Map<String, Facts> facts = new LinkedHashMap<>();
        for (Job job : jobs) {
            String id = job.session().id();
            LoginHost.FileFact usage = look.file(id, SessionWrapper.USAGE_FILE);
            // The status counts once it is here with every byte of output, or while it is still being brought.
            boolean status = Files.exists(job.exitStatusFile()) || look.file(id, STATUS) != null && host.mirrors(id);
            facts.put(id, new Facts(look.file(id, JobScript.ENVIRONMENT) != null, look.file(id, SessionStore.COMMAND) != null,
                    status, usage == null ? -1 : usage.modifiedMillis(), usage == null ? null : usage.text()));
        }
        return new Look(result(squeue, look.run()), facts);
    }

    @Override
    public Path folder(Session session) throws IOException {
        return Path.of(host.folder(session.id()));
    }

    @Override
    public Path output(Session session) throws IOException {
        return folder(session).resolve(OUTPUT);
    }

    @Override
    public List<String> wrapper(Session session, Path exitStatusFile, Duration timeout, long graceMillis) throws IOException {
        return SessionWrapper.jobPrefix("perl", host.wrapper(), folder(session).resolve(STATUS).toString(), timeout,
                graceMillis);
    }

    @Override
    public Map<String, String> baseEnvironment(Map<String, String> clientEnv) {
        return Map.of(); // sbatch's --export=NONE: the node loads the login user's environment, as ssh gives its login's
    }

    /** The output file, empty, before the job: the mirror follows it from the start, and Slurm appends to it. */
    @Override
    public void prepareFolder(Session session) throws IOException {
        host.put(session.id(), OUTPUT, new byte[0]);
    }

    @Override
    public void write(Session session, String name, byte[] content) throws IOException {
        host.put(session.id(), name, content);
    }

    @Override
    public String read(Session session, String name) throws IOException {
        LoginHost.FileFact f = host.look(List.of(session.id()), List.of(name), Set.of(name), Map.of(), List.of())
                .file(session.id(), name);
        return f == null ? null : f.text();
    }

    @Override
    public void delete(Session session, String name) throws IOException {
        host.drop(session.id(), name);
    }

    @Override
    public void follow(Session session, Path exitStatusFile) throws IOException {
        host.mirror(session, exitStatusFile);
    }

    @Override
    public void done(Session session) {
        host.done(session.id());
    }
}
