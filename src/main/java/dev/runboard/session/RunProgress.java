package dev.runboard.session;

/**
 * How far along a running session is, judged against its command's earlier runs: {@code progress}
 * (0–1) and {@code etaSeconds} are null when unknown, and once the run has outgrown every earlier
 * one {@code longerThanUsual} is true instead of a bar stuck near 100 %. {@code basis} says what
 * the estimate was read from ({@code time} or {@code output}).
 */
public record RunProgress(Double progress, Double etaSeconds, boolean longerThanUsual, String basis) {
    public static final RunProgress NONE = new RunProgress(null, null, false, null);
    public static final RunProgress LONGER_THAN_USUAL = new RunProgress(null, null, true, null);

    public boolean known() {
        return progress != null;
    }
}
