package dev.runboard.slurm;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.ShellQuoting;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Slurm session's batch job: the script sbatch runs, which {@code exec}s runboard's session wrapper
 * (so Slurm's signals reach the wrapper, the one owner of the command's tree), and sbatch's
 * arguments: runboard's defaults first, then the user's as given, so that the user's win.
 */
final class JobScript {
    /** The batch script, in the session's folder (sbatch keeps its own copy). */
    static final String SCRIPT = "slurm-job.sh";
    /** The command's environment, 0600, which the wrapper reads and deletes (never on sbatch's command line). */
    static final String ENVIRONMENT = "slurm.env";
    /** Beyond the timeout and the grace: the wrapper's sweep after the grace, and the job's own start. */
    private static final Duration TIME_SLACK = Duration.ofMinutes(1);

    private JobScript() {
    }

    /**
     * The script's text. The wrapper's own variables are set here (they name the environment file and
     * the session's tag, neither secret); the command's environment comes from the file.
     * {@code SLURM_EXPORT_ENV=ALL}: steps the command starts with srun get its environment, not the
     * batch's {@code --export=NONE}.
     */
    static String text(String sessionId, List<String> wrapperAndCommand, String tag, Path environmentFile) {
        return "#!/bin/sh\n"
                + "# runboard session " + sessionId + ": the job is runboard's session wrapper (docs/CLUSTERS.md)\n"
                + "export " + ShellQuoting.quote(tag) + " " + ShellQuoting.quote(
                        dev.runboard.process.SessionWrapper.ENVIRONMENT_VARIABLE + "=" + environmentFile) + " SLURM_EXPORT_ENV=ALL\n"
                + "exec " + ShellQuoting.join(wrapperAndCommand) + "\n";
    }

    /** sbatch's arguments for the session's job, its output into {@code output}, the script last. */
    static List<String> sbatchArguments(Session session, Path output, Path script) {
        SessionSpec spec = session.spec();
        String capture = output.toString();
        List<String> args = new ArrayList<>(List.of("sbatch", "--parsable", "--export=NONE", "--no-requeue",
                "--job-name=runboard-" + session.id(), "--output=" + capture, "--error=" + capture, "--open-mode=append",
                "--chdir=" + chdir(spec)));
        if (spec.timeout() != null) {
            args.add("--time=" + minutes(spec.timeout(), spec.grace()));
        }
        args.addAll(spec.slurm().sbatch());
        args.add(script.toString());
        return args;
    }

    /** sbatch's arguments to ask whether it would take such a job, submitting nothing ({@code --test-only}). */
    static List<String> testArguments(SessionSpec spec) {
        List<String> args = new ArrayList<>(List.of("sbatch", "--test-only", "--export=NONE", "--no-requeue",
                "--chdir=" + chdir(spec)));
        if (spec.timeout() != null) {
            args.add("--time=" + minutes(spec.timeout(), spec.grace()));
        }
        args.addAll(spec.slurm().sbatch());
        args.add("--wrap=true");
        return args;
    }

    /** The job starts in the session's folder when the wrapper must enter a folder whose name is not UTF-8 itself. */
    private static String chdir(SessionSpec spec) {
        String cwd = dev.runboard.session.RawPaths.text(spec.cwd());
        return dev.runboard.session.RawText.isRaw(cwd) ? "/" : cwd;
    }

    /** Slurm's time limit, in whole minutes: at least the timeout and the grace, and a minute more. */
    static long minutes(Duration timeout, Duration grace) {
        long ms = timeout.plus(grace).plus(TIME_SLACK).toMillis();
        return Math.max(1, (ms + 59_999) / 60_000);
    }
}
