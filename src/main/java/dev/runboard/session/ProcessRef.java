package dev.runboard.session;

import com.fasterxml.jackson.annotation.JsonProperty;

/** A process as a kill report names it: its pid and command line. */
public record ProcessRef(@JsonProperty("pid") long pid, @JsonProperty("command") String command) {
}
