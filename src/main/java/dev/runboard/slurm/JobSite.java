package dev.runboard.slurm;

import dev.runboard.session.Session;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Where a Slurm session's job is submitted and where its folder is: this machine ({@link LocalSite}), or a login
 * host reached over the ssh layer ({@link LoginSite}). {@link SlurmSessions} is the one brain (states, reasons,
 * whose status wins, the kill); a site only runs Slurm's commands and reads and writes the folder's few files.
 */
interface JobSite {
    /** What one poll needs of a job's folder. */
    record Facts(boolean environmentLeft, boolean ran, boolean statusThere, long usageWrittenAt, String usage) {
    }

    /** One poll: squeue's answer, and each followed session's folder facts by session id. */
    record Look(SlurmCommand.Result squeue, Map<String, Facts> facts) {
    }

    /** The site can take a job now (a login host reachable, its helper there): else a one-line InvalidSpecException. */
    void prepare();

    /** Runs one of Slurm's client commands there; an IOException when it cannot be run at all (not on PATH). */
    SlurmCommand.Result run(List<String> argv) throws IOException;

    /** The time zone the site's squeue prints its times in. */
    java.time.ZoneId squeueZone();

    /** Runs {@code squeue} and reads every session's folder facts: one call for all of this site's jobs. */
    Look look(List<String> squeue, List<Job> jobs) throws IOException;

    /** The job's folder as the node sees it. */
    Path folder(Session session) throws IOException;

    /** Where the job's stdout and stderr go (sbatch's {@code --output}), as the node sees it. */
    Path output(Session session) throws IOException;

    /** The words that run the session's wrapper as the job, before the command's. */
    List<String> wrapper(Session session, Path exitStatusFile, Duration timeout, long graceMillis) throws IOException;

    /** The environment the command starts from: the client's here; a login host gives its login's on the node. */
    Map<String, String> baseEnvironment(Map<String, String> clientEnv);

    /** Makes the folder ready for the job's files and output. */
    void prepareFolder(Session session) throws IOException;

    /** Writes a file of the folder whole: private, never seen half written. */
    void write(Session session, String name, byte[] content) throws IOException;

    /** A file of the folder; null when it is not there. */
    String read(Session session, String name) throws IOException;

    void delete(Session session, String name) throws IOException;

    /** The job's output and, once all of it is here, its status, in the session's local files (a login host's are copied). */
    void follow(Session session, Path exitStatusFile) throws IOException;

    /** The session has ended (or its job was refused): nothing more is brought here, and what was the site's own is tidied. */
    void done(Session session);

    /** A followed job as a site sees it: its session and the session's local exit-status file. */
    record Job(Session session, Path exitStatusFile) {
    }
}
