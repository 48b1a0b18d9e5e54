package dev.runboard.session;

import java.time.Instant;

/** One point of a session's resource charts: CPU, RSS and output rate at an instant. */
public record ResourcePoint(Instant at, double cpuPercent, long rssBytes, double outputBytesPerSecond) {
}
