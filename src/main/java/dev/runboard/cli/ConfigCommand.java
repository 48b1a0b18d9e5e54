package dev.runboard.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.SettingKeys;
import dev.runboard.store.Settings;
import dev.runboard.store.SettingsStore;
import dev.runboard.store.StoreException;
import dev.runboard.store.Json;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code runboard config get|set}: the settings in the data dir's settings.json, read and checked by one table. */
@Command(name = "config", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {"Read or change the settings (settings.json in the data dir; settings.schema.json beside it"
            + " says what each key allows). The first use writes the file with every default."},
        subcommands = {ConfigCommand.Get.class, ConfigCommand.Set.class},
        footer = {"", "Examples:", "  runboard config get", "  runboard config get theme", "  runboard config set theme dark",
            "  runboard config set default_grace_ms 5s", "  runboard config set keep_artifact_bytes 10G",
            "  runboard config set default_rules '[{\"pattern\": \"ERROR\", \"action\": \"fail\"}]'"})
public final class ConfigCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws UsageException {
        throw new UsageException("say get or set (see runboard config --help)");
    }

    static SettingsStore store(StoreAccess access) throws UsageException {
        return new SettingsStore(access.checked());
    }

    /** {@code config get [KEY]}. */
    @Command(name = "get", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
            description = "Print one setting's value, or every setting (one per line) when no key is given.")
    static final class Get implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        StoreAccess store;

        @Parameters(arity = "0..1", paramLabel = "KEY", description = "A setting's name, as in settings.json.")
        String key;

        @Option(names = "--json", description = "Print the whole settings.json instead.")
        boolean json;

        @Override
        public Integer call() throws UsageException {
            SettingsStore settings = store(store);
            SettingsStore.Loaded loaded = settings.loadOrCreate();
            loaded.warning().ifPresent(w -> spec.commandLine().getErr().println("runboard config: warning: " + w));
            JsonNode tree = Json.mapper().valueToTree(loaded.settings());
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(Json.write(tree));
            } else if (key != null) {
                checked(key);
                out.println(text(tree.get(key)));
            } else {
                for (SettingKeys.Key k : SettingKeys.ALL) {
                    out.printf(Locale.ROOT, "%-20s %s%n", k.name(), text(tree.get(k.name())));
                }
            }
            out.flush();
            return 0;
        }
    }

    /** {@code config set KEY VALUE}. */
    @Command(name = "set", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
            description = {"Change one setting. Durations read 500ms, 5s, 1h30m (a bare number is milliseconds for"
                + " the _ms keys); sizes read 500M, 5G (KiB, MiB, GiB). A value that is not allowed changes nothing"
                + " and says what is allowed."})
    static final class Set implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        StoreAccess store;

        @Parameters(index = "0", paramLabel = "KEY", description = "A setting's name (see runboard config get).")
        String key;

        @Parameters(index = "1", paramLabel = "VALUE", description = "Its new value.")
        String value;

        @Override
        public Integer call() throws UsageException, StoreException {
            checked(key);
            Settings updated;
            try {
                updated = store(store).set(key, value);
            } catch (IllegalArgumentException e) {
                throw new UsageException(e.getMessage());
            }
            JsonNode tree = Json.mapper().valueToTree(updated);
            spec.commandLine().getOut().println(key + " " + text(tree.get(key)));
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    private static void checked(String key) throws UsageException {
        try {
            SettingKeys.named(key);
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage());
        }
    }

    /** A value as one line: text bare, everything else as compact JSON. */
    private static String text(JsonNode value) {
        if (value == null || value.isNull()) {
            return "none";
        }
        return value.isTextual() ? value.asText() : value.toString();
    }
}
