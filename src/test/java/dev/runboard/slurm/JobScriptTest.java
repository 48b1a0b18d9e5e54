package dev.runboard.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SlurmTarget;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The options runboard gives sbatch for every job and the ones a user may not give ({@code SlurmTarget.check}) are
 * two lists in two packages; this keeps them one decision. Each option of runboard's own is either refused when a user
 * passes it (the user's would come last and win, breaking what the session promises) or named here as the user's to
 * change, with why. An option added to {@link JobScript} fails this test until it is put on one side.
 */
class JobScriptTest {
    /** runboard's defaults that a user's --sbatch may change, and why that breaks nothing runboard relies on. */
    private static final Map<String, String> USERS_TO_CHANGE = Map.of(
            "--parsable", "given twice it is the same: the job's id alone, which runboard reads",
            "--export", "what the job inherits from sbatch's caller: the wrapper sets the session's variables over it",
            "--no-requeue", "the user can only repeat it: --requeue, the other way, is refused",
            "--job-name", "only for people reading squeue: runboard finds its jobs by id",
            "--time", "the user's time limit: runboard's comes from --timeout, and the user's wins by design");

    @Test
    void everyOptionRunboardGivesSbatchIsEitherRefusedFromUsersOrTheirsToChange() {
        SessionSpec spec = SessionSpec.shell("make").cwd(Path.of("/tmp")).timeout(Duration.ofMinutes(5))
                .slurm(SlurmTarget.DEFAULTS).build();
        Session session = new Session("20261207-150000-abcdef", spec, null, Clock.systemUTC());
        List<String> arguments = JobScript.sbatchArguments(session, Path.of("/data/capture.log"), Path.of("/data/job.sh"));
        assertEquals("sbatch", arguments.get(0));
        assertEquals("/data/job.sh", arguments.get(arguments.size() - 1));

        List<String> unclassified = new ArrayList<>();
        for (String argument : arguments.subList(1, arguments.size() - 1)) {
            String name = argument.contains("=") ? argument.substring(0, argument.indexOf('=')) : argument;
            boolean refused = refused(argument);
            boolean usersToChange = USERS_TO_CHANGE.containsKey(name);
            if (refused == usersToChange) {
                unclassified.add(argument + (refused ? " (refused, yet listed as the user's)" : " (neither refused nor listed)"));
            }
        }
        assertEquals(List.of(), unclassified, "each of runboard's sbatch options must be refused from users or theirs to change");
        // Both sides are live: the capture's options are runboard's; a partition is the user's.
        assertThrows(InvalidSpecException.class, () -> new SlurmTarget(List.of("--output=/tmp/mine.log")).check());
        new SlurmTarget(List.of("--partition=debug")).check();
    }

    private static boolean refused(String argument) {
        try {
            new SlurmTarget(List.of(argument)).check();
            return false;
        } catch (InvalidSpecException e) {
            return true;
        }
    }
}
