package dev.runboard.workspace;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import dev.runboard.session.ShutdownStep;
import dev.runboard.session.Signal;
import java.time.Duration;

/**
 * {@code shutdown: {command, signal, timeout}} as written: how every kill of the command begins,
 * in place of TERM. {@code command} (a shell command run in the command's folder) or {@code signal}
 * (sent to the command's group), or both (the command first); {@code timeout} is how long the
 * command's processes get to end before the KILL sweep (default: the command's {@code grace}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"command", "signal", "timeout"})
public record ShutdownKey(
        String command,
        String signal,
        @JsonDeserialize(using = DurationText.GraceReader.class) @JsonSerialize(using = DurationText.Writer.class) Duration timeout) {

    public ShutdownKey {
        if (command != null && command.isBlank()) {
            throw new IllegalArgumentException("'shutdown' command is empty");
        }
        if (command != null && (command.indexOf('\0') >= 0 || command.indexOf('\n') >= 0)) {
            throw new IllegalArgumentException("'shutdown' command must be one line (call a script for more)");
        }
        if (command == null && signal == null) {
            throw new IllegalArgumentException("'shutdown' needs a command or a signal (and may take a timeout)");
        }
        if (signal != null) {
            Signal s = Signal.parse(signal);
            if (s == Signal.STOP || s == Signal.CONT) {
                throw new IllegalArgumentException("'shutdown' signal " + s.name() + " does not end a process");
            }
        }
    }

    /** The step as sessions carry it. */
    public ShutdownStep toStep() {
        return new ShutdownStep(command, signal == null ? null : Signal.parse(signal).name());
    }
}
