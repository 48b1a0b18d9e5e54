package dev.runboard.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A process-compose process in runboard's keys (docs/STACKS.md has the whole table):
 * {@code depends_on} conditions ({@code process_started} → started, {@code process_healthy} and
 * {@code process_log_ready} → ready, {@code process_completed_successfully} → succeeded,
 * {@code process_completed} → ended), {@code readiness_probe} ({@code exec}, {@code http_get}) or
 * {@code ready_log_line} → {@code ready}, {@code liveness_probe} → {@code liveness},
 * {@code availability} ({@code restart}, {@code backoff_seconds}, {@code max_restarts}: 0 is no limit
 * there, so {@code unlimited} here), {@code shutdown}, {@code disabled}, {@code description},
 * {@code log_location}, {@code is_tty}. What runboard cannot express is not guessed: it is named in
 * {@link Mapped#dropped()}, which the import shows.
 */
final class ProcessComposeRules {
    /** The process keys the import reads (CommandDiscovery reads command, working_dir and environment). */
    private static final Set<String> READ = Set.of("command", "working_dir", "environment", "depends_on", "readiness_probe",
            "ready_log_line", "liveness_probe", "availability", "shutdown", "disabled", "description", "log_location", "is_tty",
            "success_exit_codes");

    private ProcessComposeRules() {
    }

    /** The command with what it declares about its place in a stack, and what could not be kept, one phrase each. */
    record Mapped(WorkspaceCommand command, List<String> dropped) {
    }

    static Mapped apply(WorkspaceCommand c, JsonNode process) {
        List<String> dropped = new ArrayList<>();
        ReadyCheck ready = ready(process.path("readiness_probe"), dropped);
        String logLine = process.path("ready_log_line").asText("");
        if (!logLine.isEmpty()) {
            if (ready == null) {
                ready = new ReadyCheck(null, null, literal(logLine), null, null, null, null);
            } else {
                dropped.add("ready_log_line (the readiness_probe is kept: a command has one ready probe)");
            }
        }
        JsonNode availability = process.path("availability");
        WorkspaceCommand mapped = c.withOrchestration(dependsOn(process.path("depends_on")), ready, restart(availability, dropped),
                backoff(availability), null);
        mapped = mapped.withExtras(text(process, "description"), process.path("disabled").asBoolean(false) ? Boolean.TRUE : null,
                exitCodes(process.path("success_exit_codes")), text(process, "log_location"), shutdown(process.path("shutdown"), dropped),
                liveness(process.path("liveness_probe"), dropped));
        if (process.path("is_tty").asBoolean(false)) {
            mapped = mapped.withPty(Boolean.TRUE);
        }
        if (availability.path("exit_on_end").asBoolean(false)) {
            dropped.add("availability.exit_on_end (run up --until-ended --abort-on-failure to end with the stack)");
        }
        process.fieldNames().forEachRemaining(k -> {
            if (!READ.contains(k) && !isDefault(k, process.path(k))) {
                dropped.add(k + why(k));
            }
        });
        return new Mapped(mapped, dropped);
    }

    /** A key left at process-compose's default changes nothing, so losing it is no loss worth a line. */
    private static boolean isDefault(String key, JsonNode v) {
        if (key.equals("replicas")) {
            return v.asInt(1) <= 1;
        }
        return v.isNull() || v.isBoolean() && !v.asBoolean() || v.isNumber() && v.asDouble() == 0
                || v.isTextual() && v.asText().isEmpty() || v.isContainerNode() && v.isEmpty();
    }

    private static String why(String key) {
        return switch (key) {
            case "is_daemon" -> " (runboard follows the process it starts: run the daemon in the foreground)";
            case "namespace" -> " (imported commands go to the group process-compose)";
            case "replicas" -> " (one session per command: copy the command to run more)";
            case "entrypoint" -> " (write the command as argv: [...] instead)";
            case "log_configuration", "disable_ansi_colors" -> " (the output is captured as written)";
            case "vars" -> " (no templates in runboard.yaml)";
            case "is_foreground" -> " (open a terminal command with pty: true)";
            default -> " (not a key runboard's import knows)";
        };
    }

    private static String text(JsonNode process, String key) {
        String v = process.path(key).asText("");
        return v.isBlank() ? null : v;
    }

    /** ready_log_line is a plain substring there; the log probe takes a regex, so its special characters are escaped. */
    static String literal(String line) {
        StringBuilder sb = new StringBuilder();
        for (char ch : line.toCharArray()) {
            if ("\\.[]{}()<>*+-=!?^$|".indexOf(ch) >= 0) {
                sb.append('\\');
            }
            sb.append(ch);
        }
        return sb.toString();
    }

    private static Map<String, String> dependsOn(JsonNode deps) {
        if (!deps.isObject()) {
            return null;
        }
        Map<String, String> out = new LinkedHashMap<>();
        deps.fields().forEachRemaining(d -> out.put(d.getKey(), switch (d.getValue().path("condition").asText("")) {
            case "process_healthy", "process_log_ready" -> "ready";
            case "process_completed_successfully" -> "succeeded";
            case "process_completed" -> "ended";
            default -> "started";
        }));
        return out.isEmpty() ? null : out;
    }

    private static ReadyCheck ready(JsonNode probe, List<String> dropped) {
        Probe p = probe(probe, "readiness_probe", dropped);
        if (p == null) {
            return null;
        }
        try {
            return new ReadyCheck(null, p.http, null, p.exec, p.period, null, p.failures);
        } catch (IllegalArgumentException e) {
            dropped.add("readiness_probe (" + e.getMessage() + ")");
            return null; // a probe runboard cannot run (an odd URL): the command still imports
        }
    }

    private static LivenessCheck liveness(JsonNode probe, List<String> dropped) {
        Probe p = probe(probe, "liveness_probe", dropped);
        if (p == null) {
            return null;
        }
        try {
            return new LivenessCheck(null, p.http, null, p.exec, p.period, p.timeout, p.failures, p.initialDelay, p.successThreshold,
                    p.status, p.headers);
        } catch (IllegalArgumentException e) {
            dropped.add("liveness_probe (" + e.getMessage() + ")");
            return null;
        }
    }

    private record Probe(String exec, String http, Duration period, Duration timeout, Integer failures, Duration initialDelay,
                         Integer successThreshold, Integer status, Map<String, String> headers) {
    }

    private static Probe probe(JsonNode probe, String key, List<String> dropped) {
        if (!probe.isObject()) {
            return null;
        }
        String exec = probe.path("exec").path("command").asText(null);
        if (exec != null && probe.path("exec").hasNonNull("working_dir")) {
            dropped.add(key + ".exec.working_dir (probes run in the command's folder)");
        }
        String http = null;
        Integer status = null;
        Map<String, String> headers = null;
        JsonNode get = probe.path("http_get");
        if (exec == null && get.isObject()) {
            String port = get.path("port").asText(get.path("num_port").asText(""));
            http = get.path("scheme").asText("http") + "://" + get.path("host").asText("127.0.0.1") + (port.isEmpty() ? "" : ":" + port)
                    + get.path("path").asText("/");
            int code = get.path("status_code").asInt(0);
            status = code >= 100 && code <= 599 && code != 200 ? code : null;
            if (get.path("headers").isObject()) {
                Map<String, String> h = new LinkedHashMap<>();
                get.path("headers").fields().forEachRemaining(e -> h.put(e.getKey(), e.getValue().isArray()
                        ? e.getValue().path(0).asText() : e.getValue().asText()));
                headers = h.isEmpty() ? null : h;
            }
        }
        if (exec == null && http == null) {
            dropped.add(key + " (only exec and http_get probes are imported)");
            return null;
        }
        if ((status != null || headers != null) && key.equals("readiness_probe")) {
            dropped.add(key + ".http_get status_code and headers (a ready probe takes any 2xx; liveness takes both)");
            status = null;
            headers = null;
        }
        return new Probe(exec, http, seconds(probe, "period_seconds", 1), seconds(probe, "timeout_seconds", 1),
                probe.has("failure_threshold") ? Math.max(1, probe.get("failure_threshold").asInt()) : null,
                seconds(probe, "initial_delay_seconds", 0),
                probe.has("success_threshold") ? Math.max(1, probe.get("success_threshold").asInt()) : null, status, headers);
    }

    private static Duration seconds(JsonNode node, String key, long least) {
        return node.has(key) && node.get(key).asLong() > 0 ? Duration.ofSeconds(Math.max(least, node.get(key).asLong())) : null;
    }

    /** {@code exit_on_failure} ends process-compose itself there: no restart here, and up --abort-on-failure does the rest. */
    private static String restart(JsonNode availability, List<String> dropped) {
        return switch (availability.path("restart").asText("")) {
            case "always" -> "always";
            case "on_failure" -> "on-failure";
            case "exit_on_failure" -> {
                dropped.add("availability.restart: exit_on_failure (run up --abort-on-failure to stop the stack when it fails)");
                yield null;
            }
            default -> null;
        };
    }

    /** process-compose waits the same {@code backoff_seconds} before every restart; {@code max_restarts} 0 (or none) means no limit there. */
    private static RestartBackoff backoff(JsonNode availability) {
        String policy = availability.path("restart").asText("");
        if (!policy.equals("always") && !policy.equals("on_failure")) {
            return null;
        }
        Duration wait = availability.has("backoff_seconds") ? Duration.ofSeconds(Math.max(0, availability.get("backoff_seconds").asLong())) : null;
        int max = availability.path("max_restarts").asInt(0);
        return new RestartBackoff(wait, wait, max > 0 ? max : RestartBackoff.UNLIMITED, null);
    }

    private static ShutdownKey shutdown(JsonNode shutdown, List<String> dropped) {
        if (!shutdown.isObject() || shutdown.isEmpty()) {
            return null;
        }
        String command = shutdown.path("command").asText("");
        int signal = shutdown.path("signal").asInt(0);
        long timeout = shutdown.path("timeout_seconds").asLong(0);
        if (shutdown.path("parent_only").asBoolean(false)) {
            dropped.add("shutdown.parent_only (runboard's shutdown signal goes to the command's process group)");
        }
        String name = signal > 0 ? dev.runboard.session.Signal.nameOf(signal).orElse(null) : null;
        if (signal > 0 && name == null) {
            dropped.add("shutdown.signal " + signal + " (not a signal number runboard knows)");
        }
        try {
            return command.isBlank() && name == null ? null
                    : new ShutdownKey(command.isBlank() ? null : command.strip(), name, timeout > 0 ? Duration.ofSeconds(timeout) : null);
        } catch (IllegalArgumentException e) {
            dropped.add("shutdown (" + e.getMessage() + ")");
            return null;
        }
    }

    private static List<Integer> exitCodes(JsonNode codes) {
        if (!codes.isArray() || codes.isEmpty()) {
            return null;
        }
        List<Integer> out = new ArrayList<>();
        codes.forEach(n -> out.add(n.asInt()));
        return out;
    }
}
