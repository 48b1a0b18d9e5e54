package dev.runboard.slurm;

import dev.runboard.process.SessionWrapper;
import dev.runboard.session.Session;
import dev.runboard.store.SessionStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Jobs submitted from this machine: Slurm's commands run here, and the job's folder is the session's own, on a disk
 * the nodes share, so the output and the status land in it directly and nothing is copied.
 */
final class LocalSite implements JobSite {
    private final Path dataDir;
    private final SlurmCommand slurm = new SlurmCommand();
    private volatile SessionWrapper wrapper;

    /** @param dataDir where the session wrapper is installed (on the disk the nodes share) */
    LocalSite(Path dataDir) {
        this.dataDir = dataDir;
    }

    @Override
    public void prepare() {
        // sbatch's own test says whether this machine can submit
    }

    @Override
    public SlurmCommand.Result run(List<String> argv) throws IOException {
        return slurm.run(argv);
    }

    @Override
    public java.time.ZoneId squeueZone() {
        return java.time.ZoneId.systemDefault();
    }

    @Override
    public Look look(List<String> squeue, List<Job> jobs) throws IOException {
        SlurmCommand.Result r = slurm.run(squeue);
        Map<String, Facts> facts = new LinkedHashMap<>();
        for (Job job : jobs) {
            Path folder = job.exitStatusFile().getParent();
            Usage usage = usage(folder.resolve(SessionWrapper.USAGE_FILE));
            facts.put(job.session().id(), new Facts(Files.exists(folder.resolve(JobScript.ENVIRONMENT)),
                    Files.exists(folder.resolve(SessionStore.COMMAND)), Files.exists(job.exitStatusFile()), usage.writtenAt(),
                    usage.text()));
        }
        return new Look(r, facts);
    }

    private record Usage(long writtenAt, String text) {
    }

    /** The wrapper's usage file, checked for what it is before it is opened (a FIFO put in its place would block the poller). */
    private static Usage usage(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                return new Usage(-1, null);
            }
            return new Usage(a.lastModifiedTime().toMillis(), Files.readString(file, StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            return new Usage(-1, null); // not written yet (the job waits, or its command has just started)
        }
    }

    @Override
    public Path folder(Session session) {
        return session.captureFile().getParent();
    }

    @Override
    public Path output(Session session) {
        return session.captureFile();
    }

    @Override
    public List<String> wrapper(Session session, Path exitStatusFile, Duration timeout, long graceMillis) throws IOException {
        SessionWrapper known = wrapper;
        if (known == null) {
            known = SessionWrapper.install(dataDir).orElseThrow(() -> new IOException("perl was not found on PATH:"
                    + " a Slurm job runs the command under runboard's session wrapper, a Perl script"));
            wrapper = known;
        }
        return known.jobPrefix(exitStatusFile, timeout, graceMillis);
    }

    @Override
    public Map<String, String> baseEnvironment(Map<String, String> clientEnv) {
        return clientEnv != null ? clientEnv : System.getenv();
    }

    @Override
    public void prepareFolder(Session session) {
        // the session's folder and its capture file exist
    }

    @Override
    public void write(Session session, String name, byte[] content) throws IOException {
        dev.runboard.store.AtomicFiles.SYSTEM.write(folder(session).resolve(name), content);
    }

    @Override
    public String read(Session session, String name) throws IOException {
        try {
            return Files.readString(folder(session).resolve(name), StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
    }

    @Override
    public void delete(Session session, String name) throws IOException {
        Files.deleteIfExists(folder(session).resolve(name));
    }

    @Override
    public void follow(Session session, Path exitStatusFile) {
        // the job writes its output and status into the session's folder itself
    }

    @Override
    public void done(Session session) {
        // the folder is the session's own: the engine keeps it
    }
}
