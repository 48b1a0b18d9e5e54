package dev.runboard.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.time.Duration;

/**
 * {@code backoff:} of a restarting command: the first wait {@code initial}, doubled per restart up
 * to {@code max}, at most {@code limit} restarts ({@code 0}: none; {@code unlimited}: no limit); the
 * count starts again once a run stayed up {@code reset_after}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"initial", "max", "limit", "reset_after"})
public record RestartBackoff(
        @JsonDeserialize(using = DurationText.Reader.class) @JsonSerialize(using = DurationText.Writer.class) Duration initial,
        @JsonDeserialize(using = DurationText.Reader.class) @JsonSerialize(using = DurationText.Writer.class) Duration max,
        @JsonDeserialize(using = RestartLimitText.Reader.class) @JsonSerialize(using = RestartLimitText.Writer.class) Integer limit,
        @JsonProperty("reset_after") @JsonDeserialize(using = DurationText.Reader.class)
        @JsonSerialize(using = DurationText.Writer.class) Duration resetAfter) {

    public static final RestartBackoff DEFAULT = new RestartBackoff(null, null, null, null);
    /** {@code limit: unlimited}. */
    public static final int UNLIMITED = Integer.MAX_VALUE;
    public static final int DEFAULT_LIMIT = 5;

    public RestartBackoff {
        if (limit != null && limit < 0) {
            throw new IllegalArgumentException("'limit' must be 0 or more");
        }
        if (initial != null && max != null && max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("'max' must not be shorter than 'initial'");
        }
    }

    public Duration initialOrDefault() {
        return initial == null ? Duration.ofSeconds(1) : initial;
    }

    public Duration maxOrDefault() {
        return max == null ? Duration.ofSeconds(30) : max;
    }

    public int limitOrDefault() {
        return limit == null ? DEFAULT_LIMIT : limit;
    }

    public boolean unlimited() {
        return limitOrDefault() == UNLIMITED;
    }

    public Duration resetAfterOrDefault() {
        return resetAfter == null ? Duration.ofSeconds(60) : resetAfter;
    }
}
