package dev.runboard.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.runboard.store.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * Finds the commands a project folder already declares: Procfile entries, package.json scripts,
 * Makefile targets, mprocs and process-compose processes, and the Maven/Gradle wrappers. Reads
 * files only; never runs anything. A file it cannot read is skipped and named in {@link Result#problems()}.
 */
public final class CommandDiscovery {
    /** The files whose change can change what is discovered. */
    public static final Set<String> SOURCE_FILES = Set.of("Procfile", "package.json", "GNUmakefile", "makefile", "Makefile",
            "mprocs.yaml", "mprocs.yml", "process-compose.yaml", "process-compose.yml", "mvnw", "gradlew");

    /** Other tools' files as trees: Jackson's defaults (not store.Json's), with the session names every mapper has. */
    private static final ObjectMapper JSON = Json.sessionNames(JsonMapper.builder()).build();

    private CommandDiscovery() {
    }

    public record Result(List<DiscoveredCommand> commands, List<String> problems) {
        public Result {
            commands = List.copyOf(commands);
            problems = List.copyOf(problems);
        }

        public static final Result NONE = new Result(List.of(), List.of());
    }

    public static Result scan(Path root) {
        List<DiscoveredCommand> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        source(root, "Procfile", problems, f -> found.addAll(procfile(Files.readString(f, StandardCharsets.UTF_8))));
        source(root, "package.json", problems, f -> found.addAll(packageJson(Files.readString(f, StandardCharsets.UTF_8), packageRunner(root))));
        for (String name : List.of("GNUmakefile", "makefile", "Makefile")) { // make's own search order: the first wins
            if (Files.isRegularFile(root.resolve(name))) {
                source(root, name, problems, f -> found.addAll(MakefileTargets.read(Files.readString(f, StandardCharsets.UTF_8), name)));
                break;
            }
        }
        for (String name : List.of("mprocs.yaml", "mprocs.yml")) {
            source(root, name, problems, f -> found.addAll(mprocs(Files.readString(f, StandardCharsets.UTF_8), name)));
        }
        for (String name : List.of("process-compose.yaml", "process-compose.yml")) {
            source(root, name, problems, f -> found.addAll(processCompose(Files.readString(f, StandardCharsets.UTF_8), name)));
        }
        if (Files.isRegularFile(root.resolve("mvnw"))) {
            found.add(new DiscoveredCommand("mvnw", "test", WorkspaceCommand.shell("./mvnw test").withGroup("maven")));
        }
        if (Files.isRegularFile(root.resolve("gradlew"))) {
            found.add(new DiscoveredCommand("gradlew", "build", WorkspaceCommand.shell("./gradlew build").withGroup("gradle")));
        }
        return new Result(found, problems);
    }

    private interface Reader {
        void read(Path file) throws IOException;
    }

    private static void source(Path root, String name, List<String> problems, Reader reader) {
        Path file = root.resolve(name);
        if (!Files.isRegularFile(file)) {
            return;
        }
        try {
            reader.read(file);
        } catch (IOException | RuntimeException e) {
            String msg = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage().lines().findFirst().orElse("");
            problems.add(name + ": " + msg);
        }
    }

    /** {@code name: command} lines; {@code #} comments and blank lines skipped. */
    static List<DiscoveredCommand> procfile(String text) {
        List<DiscoveredCommand> out = new ArrayList<>();
        for (String line : text.split("\\R")) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("^([A-Za-z0-9_-]+):\\s*(\\S.*)$").matcher(line.strip());
            if (!line.strip().startsWith("#") && m.matches()) {
                out.add(new DiscoveredCommand("Procfile", m.group(1), WorkspaceCommand.shell(m.group(2).strip()).withGroup("Procfile")));
            }
        }
        return out;
    }

    /** The package manager a project uses, from its lock file: {@code npm run}, {@code yarn run} or {@code pnpm run}. */
    static String packageRunner(Path root) {
        if (Files.exists(root.resolve("pnpm-lock.yaml"))) {
            return "pnpm";
        }
        if (Files.exists(root.resolve("yarn.lock"))) {
            return "yarn";
        }
        return "npm";
    }

    /** Every entry of {@code scripts}, as {@code <runner> run NAME}. */
    static List<DiscoveredCommand> packageJson(String text, String runner) throws IOException {
        JsonNode scripts = JSON.readTree(text).path("scripts");
        List<DiscoveredCommand> out = new ArrayList<>();
        for (Iterator<String> names = scripts.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (scripts.get(name).isTextual()) {
                out.add(new DiscoveredCommand("package.json", name,
                        WorkspaceCommand.shell(runner + " run " + dev.runboard.session.ShellQuoting.quote(name)).withGroup(runner)));
            }
        }
        return out;
    }

    /**
     * Another tool's YAML as that tool reads it: aliases, anchors and merge keys resolved (these
     * files share settings that way, and Jackson's reader would give an alias as the anchor's name,
     * offering to run {@code c} for {@code command: *c}). SnakeYAML's safe loader: plain values
     * only, and its limit on aliases keeps an "alias bomb" small.
     */
    static JsonNode resolvedYaml(String text) {
        Object document = new Yaml(new SafeConstructor(new LoaderOptions())).load(text);
        return JSON.valueToTree(document);
    }

    /** mprocs: {@code procs: NAME: {shell | cmd, cwd, env, autostart}}. */
    static List<DiscoveredCommand> mprocs(String text, String fileName) throws IOException {
        JsonNode procs = resolvedYaml(text).path("procs");
        List<DiscoveredCommand> out = new ArrayList<>();
        procs.fields().forEachRemaining(e -> {
            JsonNode p = e.getValue();
            WorkspaceCommand c;
            if (p.isTextual()) {
                c = WorkspaceCommand.shell(p.asText());
            } else if (p.path("shell").isTextual()) {
                c = WorkspaceCommand.shell(p.get("shell").asText());
            } else if (p.path("cmd").isArray() && !p.get("cmd").isEmpty()) {
                List<String> argv = new ArrayList<>();
                p.get("cmd").forEach(a -> argv.add(a.asText()));
                c = WorkspaceCommand.argv(argv);
            } else {
                return; // platform-specific or empty: nothing portable to offer
            }
            if (p.path("cwd").isTextual()) {
                String cwd = p.get("cwd").asText().replace("<CONFIG_DIR>/", "").replace("<CONFIG_DIR>", "");
                c = c.withCwd(cwd.isEmpty() || cwd.equals(".") ? null : cwd);
            }
            Map<String, String> env = new LinkedHashMap<>();
            p.path("env").fields().forEachRemaining(v -> {
                if (!v.getValue().isNull()) { // null means "unset it" in mprocs; we cannot express that
                    env.put(v.getKey(), v.getValue().asText());
                }
            });
            c = c.withEnv(env).withGroup("mprocs");
            if (p.path("autostart").isBoolean()) {
                c = c.withAutostart(p.get("autostart").asBoolean());
            }
            out.add(new DiscoveredCommand(fileName, e.getKey(), c));
        });
        return out;
    }

    /** process-compose: {@code processes: NAME: {command, working_dir, environment: [K=V]}}, and ProcessComposeRules' keys. */
    static List<DiscoveredCommand> processCompose(String text, String fileName) throws IOException {
        JsonNode processes = resolvedYaml(text).path("processes");
        List<DiscoveredCommand> out = new ArrayList<>();
        processes.fields().forEachRemaining(e -> {
            JsonNode p = e.getValue();
            if (!p.path("command").isTextual() || p.get("command").asText().isBlank()) {
                return;
            }
            WorkspaceCommand c = WorkspaceCommand.shell(p.get("command").asText().strip());
            if (p.path("working_dir").isTextual()) {
                String cwd = p.get("working_dir").asText();
                c = c.withCwd(cwd.isEmpty() || cwd.equals(".") ? null : cwd.replaceFirst("^\\./", ""));
            }
            Map<String, String> env = new LinkedHashMap<>();
            JsonNode environment = p.path("environment");
            if (environment.isArray()) {
                environment.forEach(kv -> {
                    String s = kv.asText();
                    int eq = s.indexOf('=');
                    if (eq > 0) {
                        env.put(s.substring(0, eq), s.substring(eq + 1));
                    }
                });
            } else if (environment.isObject()) {
                environment.fields().forEachRemaining(kv -> env.put(kv.getKey(), kv.getValue().asText()));
            }
            ProcessComposeRules.Mapped mapped = ProcessComposeRules.apply(c.withEnv(env).withGroup("process-compose"), p);
            out.add(new DiscoveredCommand(fileName, e.getKey(), mapped.command(), mapped.dropped()));
        });
        return out;
    }
}
