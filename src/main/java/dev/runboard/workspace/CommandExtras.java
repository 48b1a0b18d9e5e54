package dev.runboard.workspace;

import java.util.List;
import java.util.Objects;

/** The checks of issue 45's command keys that are not a type of their own. */
final class CommandExtras {
    private CommandExtras() {
    }

    /** {@code success_exit_codes}: exit codes 0 to 255, each once; null or empty: none (only 0 succeeds). */
    static List<Integer> exitCodes(List<Integer> codes) {
        if (codes == null || codes.isEmpty()) {
            return null;
        }
        for (Integer c : codes) {
            if (c == null || c < 0 || c > 255) {
                throw new KeyedProblem("'success_exit_codes' holds " + c + ": an exit code is 0 to 255", "success_exit_codes");
            }
        }
        return codes.stream().filter(Objects::nonNull).distinct().toList();
    }
}
