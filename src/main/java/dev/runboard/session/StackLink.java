package dev.runboard.session;

import java.util.Map;

/**
 * Where a session stands in a stack (issue #17): which workspace command of which file it runs,
 * its group, what it waits for ({@code depends_on}: command name to condition), and its place in
 * a restart chain ({@code restarts} before it, {@code previous_run} the session it replaced).
 * Immutable: a restart is a new session with a new link.
 */
public record StackLink(
        String name,
        String file,
        String group,
        Map<String, String> dependsOn,
        int restarts,
        String previousRun,
        boolean probed,
        // issue 45: exits other than 0 that count as completed, and how its kills begin (null: none)
        java.util.List<Integer> successExitCodes,
        ShutdownStep shutdown) {

    public StackLink {
        dependsOn = dependsOn == null ? Map.of() : java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(dependsOn));
        successExitCodes = successExitCodes == null || successExitCodes.isEmpty() ? null : java.util.List.copyOf(successExitCodes);
    }

    public StackLink(String name, String file, String group, Map<String, String> dependsOn, int restarts, String previousRun,
                     boolean probed) {
        this(name, file, group, dependsOn, restarts, previousRun, probed, null, null);
    }

    /** An ad-hoc session in a queue ({@code start --queue NAME}) or after another ({@code --after ID}). */
    public static StackLink adHoc(String group, Map<String, String> dependsOn) {
        return new StackLink(null, null, group, dependsOn, 0, null, false);
    }

    /** The next run of the same command, replacing {@code previous}. */
    public StackLink restartOf(String previous) {
        return new StackLink(name, file, group, dependsOn, restarts + 1, previous, probed, successExitCodes, shutdown);
    }

    /** Whether this exit code counts as success: 0, or one of {@code success_exit_codes}. */
    public boolean succeedsWith(int exitCode) {
        return exitCode == 0 || successExitCodes != null && successExitCodes.contains(exitCode);
    }
}
