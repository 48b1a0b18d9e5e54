package dev.runboard.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.Durations;
import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.Sizes;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The keys of {@code settings.json}, each with what it means and what it allows: what
 * {@code runboard config} reads and checks, what the schema file says, in one table. Values are
 * given as people write them ({@code 5s}, {@code 2G}, {@code dark}) and stored as the file's JSON.
 */
public final class SettingKeys {
    private SettingKeys() {
    }

    /** One key: its name in the file, a sentence, the values it allows, and how text becomes its JSON. */
    public record Key(String name, String description, String allowed, Parser parser) {
        public JsonNode parse(String text) {
            try {
                return parser.parse(text.strip());
            } catch (IllegalArgumentException e) {
                // The list's own problem (which rule) helps; for a scalar, what is allowed says it all.
                String detail = name.equals("default_rules") || name.equals("ssh_config") || name.equals("secret_env_patterns") ? ": " + e.getMessage() : "";
                throw new IllegalArgumentException("invalid value '" + text.strip() + "' for " + name + detail
                        + " (allowed: " + allowed + ")");
            }
        }
    }

    interface Parser {
        JsonNode parse(String text);
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    public static final List<Key> ALL = List.of(
            new Key("theme", "The window's colours.", "light or dark",
                    t -> NODES.textNode(oneOf(t, "light", "dark"))),
            new Key("default_nice", "Priority for new sessions: their niceness, 0 (normal) to 19 (lowest).",
                    "a whole number from 0 to " + SessionSpec.MAX_NICE,
                    t -> NODES.numberNode((int) whole(t, 0, SessionSpec.MAX_NICE))),
            new Key("default_grace_ms", "How long a killed session's tree may take to exit after TERM before KILL.",
                    "a duration up to " + Durations.format(SessionSpec.MAX_GRACE) + " (500ms, 2s, 1m; a bare number is milliseconds)",
                    t -> NODES.numberNode(upTo(millis(t), SessionSpec.MAX_GRACE.toMillis()))),
            new Key("default_timeout_ms", "The deadline for new sessions; none means no deadline.",
                    "none, or a duration (30s, 5m, 1h30m; a bare number is milliseconds)",
                    t -> t.equalsIgnoreCase("none") ? NODES.nullNode() : NODES.numberNode(positive(millis(t)))),
            new Key("default_max_output", "Bounded running output: sessions the supervisor starts (start, up, the window)"
                    + " without --max-output keep only this much of their newest output while they run; none keeps all of it.",
                    "none, or a size of at least " + Sizes.format(SessionSpec.MIN_MAX_OUTPUT) + " (50M, 1G; K, M, G are KiB, MiB,"
                    + " GiB; a bare number is bytes)",
                    t -> t.equalsIgnoreCase("none") ? NODES.nullNode()
                            : NODES.numberNode(atLeast(Sizes.parse(t), SessionSpec.MIN_MAX_OUTPUT))),
            new Key("keep_finished", "Retention: at most this many finished sessions are kept; the oldest go first.",
                    "a whole number of at least 1", t -> NODES.numberNode(whole(t, 1, Integer.MAX_VALUE))),
            new Key("keep_artifact_bytes", "Retention: at most this much artifact data is kept; the oldest finished sessions go first.",
                    "a size of at least 1M (500M, 5G; K, M, G are KiB, MiB, GiB; a bare number is bytes)",
                    t -> NODES.numberNode(atLeast(Sizes.parse(t), Sizes.MIB))),
            new Key("default_rules", "Output rules every new session from the window starts with.",
                    "a JSON list like [{\"pattern\": \"ERROR\", \"action\": \"fail\"}]; action is highlight, fail or notify",
                    SettingKeys::rules),
            new Key("notifications", "Desktop notifications when a session ends or a notify rule matches.", "true or false",
                    t -> NODES.booleanNode(Boolean.parseBoolean(oneOf(t, "true", "false")))),
            new Key("poll_ms", "How often the window refreshes running sessions.",
                    "a duration from 50ms to 10s (a bare number is milliseconds)",
                    t -> NODES.numberNode(within(millis(t), 50, 10_000))),
            new Key("preview_bytes", "How much output a session keeps in memory (head and tail) before it becomes an artifact.",
                    "a size from " + Sizes.format(SessionSpec.MIN_PREVIEW_BYTES) + " to " + Sizes.format(SessionSpec.MAX_PREVIEW_BYTES),
                    t -> NODES.numberNode((int) within(Sizes.parse(t), SessionSpec.MIN_PREVIEW_BYTES, SessionSpec.MAX_PREVIEW_BYTES))),
            new Key("ssh_config", "An extra OpenSSH config file for sessions on other hosts (Host aliases, keys, jump"
                    + " hosts), read before your ~/.ssh/config, which ssh still reads; its hosts are offered in the dialog.",
                    "none, or the path of a readable file (absolute, or starting with ~/)", SettingKeys::sshConfig),
            new Key("secret_env_patterns", "Environment variables whose values print as " + dev.runboard.session.SecretEnv.MASK + " in show, list --json, exec,"
                    + " history and the window (--reveal or a click shows them); the record keeps them. Globs, case-insensitive.",
                    "a comma-separated list of globs (*TOKEN*,*SECRET*), a JSON list of them, or none",
                    SettingKeys::patterns));

    public static Optional<Key> find(String name) {
        return ALL.stream().filter(k -> k.name().equals(name)).findFirst();
    }

    /** The key of this name, or an error listing the keys there are. */
    public static Key named(String name) {
        return find(name).orElseThrow(() -> new IllegalArgumentException("unknown setting '" + name + "' (settings: "
                + String.join(", ", ALL.stream().map(Key::name).toList()) + ")"));
    }

    /**
     * A value as a person writes it, in the form its key's parser reads back: {@code 30m}, not
     * {@code 1800000}; {@code 3G}, not {@code 3221225472}; {@code none} for no value. The window shows
     * this; {@code config get} prints the file's own JSON, which scripts read.
     */
    public static String shown(String name, JsonNode value) {
        if (value == null || value.isNull()) {
            return "none";
        }
        if (value.isTextual()) {
            return value.asText();
        }
        if (value.isIntegralNumber() && name.endsWith("_ms")) {
            return Durations.format(java.time.Duration.ofMillis(value.asLong()));
        }
        if (value.isIntegralNumber() && name.endsWith("_bytes")) {
            return Sizes.formatShort(value.asLong());
        }
        return value.toString();
    }

    /**
     * A JSON Schema (draft 2020-12) of the file, made from this table: JSON has no comments, so what
     * each key means and allows is said here, beside settings.json.
     */
    public static ObjectNode schema() {
        ObjectNode schema = NODES.objectNode();
        schema.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        schema.put("title", "runboard settings.json");
        schema.put("type", "object");
        ObjectNode properties = schema.putObject("properties");
        ObjectNode defaults = Json.mapper().valueToTree(Settings.DEFAULTS);
        for (Key k : ALL) {
            ObjectNode p = properties.putObject(k.name());
            p.put("description", k.description() + " Allowed: " + k.allowed() + ".");
            p.set("default", defaults.get(k.name()));
        }
        // The rules' shape as well, so the spelling of an action is the schema's, not only its prose.
        ObjectNode rule = ((ObjectNode) properties.get("default_rules")).put("type", "array").putObject("items");
        rule.put("type", "object");
        rule.putObject("properties").set("pattern", NODES.objectNode().put("type", "string"));
        ArrayNode actions = ((ObjectNode) rule.get("properties")).putObject("action").putArray("enum");
        for (OutputRule.Action a : OutputRule.Action.values()) {
            actions.add(a.word());
        }
        rule.putArray("required").add("pattern").add("action");
        schema.put("additionalProperties", false);
        return schema;
    }

    /** Globs as a JSON list: {@code *TOKEN*,*SECRET*} or {@code ["*TOKEN*"]}; {@code none} hides nothing by name. */
    private static JsonNode patterns(String text) {
        ArrayNode list = NODES.arrayNode();
        if (text.equalsIgnoreCase("none")) {
            return list;
        }
        List<String> items = new ArrayList<>();
        if (text.startsWith("[")) {
            try {
                Json.mapper().readTree(text).forEach(n -> items.add(n.asText()));
            } catch (IOException e) {
                throw new IllegalArgumentException("not a JSON list");
            }
        } else {
            items.addAll(List.of(text.split(",")));
        }
        for (String item : items) {
            list.add(dev.runboard.session.SecretEnv.checkPattern(item));
        }
        return list;
    }

    /** A config file that exists now: a mistyped path is refused at once, not at the first remote start. */
    private static JsonNode sshConfig(String text) {
        if (text.equalsIgnoreCase("none")) {
            return NODES.nullNode();
        }
        java.nio.file.Path path = java.nio.file.Path.of(text.startsWith("~/")
                ? System.getProperty("user.home") + text.substring(1) : text);
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("not an absolute path");
        }
        if (!java.nio.file.Files.isRegularFile(path) || !java.nio.file.Files.isReadable(path)) {
            throw new IllegalArgumentException("no readable file " + path);
        }
        return NODES.textNode(path.toString());
    }

    private static String oneOf(String text, String... words) {
        for (String w : words) {
            if (w.equals(text.toLowerCase(Locale.ROOT))) {
                return w;
            }
        }
        throw new IllegalArgumentException("not one of " + String.join(", ", words));
    }

    private static long whole(String text, long min, long max) {
        long n;
        try {
            n = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a whole number");
        }
        return within(n, min, max);
    }

    /** A duration in the Contract's grammar, except that a bare number is milliseconds, as the key's name says. */
    private static long millis(String text) {
        if (text.matches("\\d+")) {
            return Long.parseLong(text);
        }
        return Durations.parse(text).toMillis();
    }

    private static long within(long n, long min, long max) {
        if (n < min || n > max) {
            throw new IllegalArgumentException("out of range");
        }
        return n;
    }

    private static long upTo(long n, long max) {
        return within(n, 0, max);
    }

    private static long positive(long n) {
        return within(n, 1, Long.MAX_VALUE);
    }

    private static long atLeast(long n, long min) {
        return within(n, min, Long.MAX_VALUE);
    }

    private static JsonNode rules(String text) {
        JsonNode node;
        try {
            node = Json.mapper().readTree(text);
        } catch (IOException e) {
            throw new IllegalArgumentException("not valid JSON");
        }
        if (node == null || !node.isArray()) {
            throw new IllegalArgumentException("not a JSON list");
        }
        List<OutputRule> rules = new ArrayList<>();
        for (JsonNode r : node) {
            try {
                OutputRule rule = Json.mapper().treeToValue(r, OutputRule.class);
                rule.checkMatchesSomething();
                rules.add(rule);
            } catch (dev.runboard.session.InvalidSpecException e) {
                throw new IllegalArgumentException(e.getMessage());
            } catch (IOException | RuntimeException e) {
                throw new IllegalArgumentException("rule " + r + " is not a pattern with an action");
            }
        }
        return Json.mapper().valueToTree(rules);
    }
}
