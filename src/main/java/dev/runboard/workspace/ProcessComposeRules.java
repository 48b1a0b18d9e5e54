package dev.runboard.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a process-compose process declares about its place in a stack, in runboard's keys:
 * {@code depends_on} conditions ({@code process_started} → started, {@code process_healthy} →
 * ready, {@code process_completed_successfully} → succeeded, {@code process_completed} → ended),
 * its {@code readiness_probe} ({@code exec} or {@code http_get}, period, failure threshold) and its
 * {@code availability} ({@code restart}, {@code backoff_seconds}, {@code max_restarts}).
 * Anything it cannot express is left out rather than guessed.
 */
final class ProcessComposeRules {
    private ProcessComposeRules() {
    }

    static WorkspaceCommand apply(WorkspaceCommand c, JsonNode process) {
        return c.withOrchestration(dependsOn(process.path("depends_on")), ready(process.path("readiness_probe")),
                restart(process.path("availability")), backoff(process.path("availability")), null);
    }

    private static Map<String, String> dependsOn(JsonNode deps) {
        if (!deps.isObject()) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        deps.fields().forEachRemaining(d -> out.put(d.getKey(), switch (d.getValue().path("condition").asText("")) {
            case "process_healthy" -> "ready";
            case "process_completed_successfully" -> "succeeded";
            case "process_completed" -> "ended";
            default -> "started";
        }));
        return out.isEmpty() ? null : out;
    }

    private static ReadyCheck ready(JsonNode probe) {
        if (!probe.isObject()) {
            return null;
        }
        String exec = probe.path("exec").path("command").asText(null);
        String http = null;
        JsonNode get = probe.path("http_get");
        if (exec == null && get.isObject()) {
            http = get.path("scheme").asText("http") + "://" + get.path("host").asText("127.0.0.1") + ":"
                    + get.path("port").asText("80") + get.path("path").asText("/");
        }
        if (exec == null && http == null) {
            return null;
        }
        Duration period = probe.has("period_seconds") ? Duration.ofSeconds(Math.max(1, probe.get("period_seconds").asLong())) : null;
        Integer failures = probe.has("failure_threshold") ? Math.max(1, probe.get("failure_threshold").asInt()) : null;
        try {
            return new ReadyCheck(null, http, null, exec, period, null, failures);
        } catch (IllegalArgumentException e) {
            return null; // a probe runboard cannot run (an odd URL): the command still imports
        }
    }

    private static String restart(JsonNode availability) {
        return switch (availability.path("restart").asText("")) {
            case "always" -> "always";
            case "on_failure", "exit_on_failure" -> "on-failure";
            default -> null;
        };
    }

    /** process-compose waits the same {@code backoff_seconds} before every restart; {@code max_restarts} 0 means no limit there. */
    private static RestartBackoff backoff(JsonNode availability) {
        if (restart(availability) == null) {
            return null;
        }
        Duration wait = availability.has("backoff_seconds") ? Duration.ofSeconds(Math.max(0, availability.get("backoff_seconds").asLong())) : null;
        int max = availability.path("max_restarts").asInt(0);
        if (wait == null && max <= 0) {
            return null;
        }
        return new RestartBackoff(wait, wait, max > 0 ? max : null, null);
    }
}
