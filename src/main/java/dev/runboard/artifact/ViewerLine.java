package dev.runboard.artifact;

import dev.runboard.session.Sizes;

/**
 * One line as the viewer shows it.
 *
 * @param number 0-based line number, or -1 while the index has not reached it
 * @param start byte offset of the line
 * @param next byte offset of the following line
 * @param text the decoded line (invalid UTF-8 as U+FFFD), at most {@link ArtifactFile#LINE_LIMIT} bytes of it
 * @param cutBytes bytes of the line not shown (0 when it is shown whole)
 */
public record ViewerLine(long number, long start, long next, String text, long cutBytes) {
    /** What follows a cut line wherever one is shown (the viewer, grep), so the cut is never silent. */
    public static String cutMarker(long cutBytes) {
        return "\u27F6 line cut here: " + Sizes.format(cutBytes) + " more not shown";
    }

    public ViewerLine withNumber(long n) {
        return new ViewerLine(n, start, next, text, cutBytes);
    }
}
