package dev.runboard.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;
import java.util.Map;

/**
 * A command's liveness probe, {@code liveness:}: the shape of {@code ready} (one of tcp, http, log,
 * exec; {@code period}; {@code failures}), plus {@code initial_delay} before the first probe,
 * {@code success_threshold} (passes in a row that clear earlier failures) and, for http, the
 * {@code status} expected (default: any 2xx) and {@code headers} to send. {@code timeout} bounds one
 * probe (default: the period). Failing {@code failures} times in a row ends the run {@code failed};
 * its restart policy decides what follows.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"tcp", "http", "log", "exec", "period", "timeout", "failures", "initial_delay", "success_threshold", "status",
    "headers"})
public record LivenessCheck(
        String tcp,
        String http,
        String log,
        String exec,
        @JsonDeserialize(using = DurationText.Reader.class) @JsonSerialize(using = DurationText.Writer.class) Duration period,
        @JsonDeserialize(using = DurationText.Reader.class) @JsonSerialize(using = DurationText.Writer.class) Duration timeout,
        Integer failures,
        @JsonProperty("initial_delay") @JsonDeserialize(using = DurationText.Reader.class)
        @JsonSerialize(using = DurationText.Writer.class) Duration initialDelay,
        @JsonProperty("success_threshold") Integer successThreshold,
        Integer status,
        Map<String, String> headers) {

    public LivenessCheck {
        try {
            new ReadyCheck(tcp, http, log, exec, period, null, failures); // the same kinds and checks as ready
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage().replace("'ready'", "'liveness'"));
        }
        if (timeout != null && timeout.isZero()) {
            throw new IllegalArgumentException("'timeout' must be more than 0");
        }
        if (successThreshold != null && successThreshold < 1) {
            throw new IllegalArgumentException("'success_threshold' must be 1 or more");
        }
        if ((status != null || headers != null) && http == null) {
            throw new IllegalArgumentException("'status' and 'headers' go with an http probe");
        }
        if (status != null && (status < 100 || status > 599)) {
            throw new IllegalArgumentException("'status' must be an HTTP status, 100 to 599");
        }
        if (headers != null) {
            headers.forEach((k, v) -> {
                if (k.isBlank() || !k.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+") || v == null || v.indexOf('\n') >= 0 || v.indexOf('\r') >= 0) {
                    throw new IllegalArgumentException("'headers' " + k + ": not a header name and one-line value");
                }
            });
            headers = Map.copyOf(headers);
        }
    }

    public Duration periodOrDefault() {
        return period == null ? ReadyCheck.DEFAULT_PERIOD : period;
    }

    /** One probe's bound. */
    public Duration timeoutOrDefault() {
        return timeout == null ? periodOrDefault() : timeout;
    }

    public int failuresOrDefault() {
        return failures == null ? ReadyCheck.DEFAULT_FAILURES : failures;
    }

    public Duration initialDelayOrDefault() {
        return initialDelay == null ? Duration.ZERO : initialDelay;
    }

    public int successThresholdOrDefault() {
        return successThreshold == null ? 1 : successThreshold;
    }
}
