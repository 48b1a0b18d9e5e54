package dev.runboard.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A command's readiness probe as written under {@code ready:} (DESIGN.md, "Contract"): exactly one
 * of {@code tcp} (PORT or HOST:PORT), {@code http} (a URL answering 2xx), {@code log} (a regex over
 * the output as written) or {@code exec} (a shell command exiting 0); {@code period} between
 * probes, {@code timeout} the total time allowed to become ready, {@code failures} the consecutive
 * failed probes after readiness that make it unhealthy.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"tcp", "http", "log", "exec", "period", "timeout", "failures"})
public record ReadyCheck(
        String tcp,
        String http,
        String log,
        String exec,
        @JsonDeserialize(using = DurationText.Reader.class) @JsonSerialize(using = DurationText.Writer.class) Duration period,
        @JsonDeserialize(using = DurationText.Reader.class) @JsonSerialize(using = DurationText.Writer.class) Duration timeout,
        Integer failures) {

    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(1);
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_FAILURES = 3;

    public ReadyCheck {
        int kinds = (tcp == null ? 0 : 1) + (http == null ? 0 : 1) + (log == null ? 0 : 1) + (exec == null ? 0 : 1);
        if (kinds != 1) {
            throw new IllegalArgumentException(kinds == 0 ? "'ready' needs one probe: tcp, http, log or exec"
                    : "'ready' takes one probe: tcp, http, log or exec, not " + kinds);
        }
        if (tcp != null && !tcp.strip().matches("(?:[^\\s:]+:)?\\d{1,5}")) {
            throw new IllegalArgumentException("'tcp' must be PORT or HOST:PORT, not '" + tcp + "'");
        }
        if (tcp != null) {
            String address = tcp.strip();
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            if (port < 1 || port > 65535) {
                // No connection to it can ever succeed: the service would be waited for until its timeout.
                throw new IllegalArgumentException("'tcp' port must be 1 to 65535, not " + port);
            }
        }
        if (http != null && !http.matches("(?i)https?://\\S+")) {
            throw new IllegalArgumentException("'http' must be a URL starting with http:// or https://");
        }
        if (log != null) {
            try {
                Pattern.compile(log);
            } catch (PatternSyntaxException e) {
                throw new IllegalArgumentException("'log' is not a valid regex: " + e.getDescription());
            }
        }
        if (exec != null && exec.isBlank()) {
            throw new IllegalArgumentException("'exec' is empty");
        }
        if (period != null && period.isZero()) {
            throw new IllegalArgumentException("'period' must be more than 0");
        }
        if (failures != null && failures < 1) {
            throw new IllegalArgumentException("'failures' must be 1 or more");
        }
    }

    public Duration periodOrDefault() {
        return period == null ? DEFAULT_PERIOD : period;
    }

    public Duration timeoutOrDefault() {
        return timeout == null ? DEFAULT_TIMEOUT : timeout;
    }

    public int failuresOrDefault() {
        return failures == null ? DEFAULT_FAILURES : failures;
    }
}
