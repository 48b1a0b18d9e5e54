package dev.runboard.testing;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Says in one line on the build's console each test that could not run here (no root, no sshd,
 * no Slurm, no window manager) and why, instead of letting it pass as a quiet "Skipped: 1". Surefire
 * keeps a fork's System.out for the report files, so the line goes to the fork's own standard error,
 * which Maven shows as it comes.
 */
public final class SkipNotice implements TestExecutionListener {
    private static final PrintStream CONSOLE = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        say(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            say(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted"));
        }
    }

    private static void say(TestIdentifier test, String reason) {
        if (reason != null && reason.startsWith("Assumption failed: ")) {
            reason = reason.substring("Assumption failed: ".length());
        }
        CONSOLE.println("NOT RUN HERE: " + test.getLegacyReportingName() + " (" + where(test) + "): " + reason);
    }

    private static String where(TestIdentifier test) {
        return test.getSource().map(Object::toString)
                .map(s -> s.replaceAll(".*className = '([^']*)'.*", "$1").replaceAll("^dev\\.runboard\\.", ""))
                .orElse("?");
    }
}
