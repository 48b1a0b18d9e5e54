package dev.runboard.store;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Settings in {@code <data>/settings.json}, written atomically; an unreadable file falls back to
 * defaults with a warning. The first {@link #loadOrCreate()} writes the file with every default,
 * and {@code settings.schema.json} beside it says what each key means and allows.
 */
public final class SettingsStore {
    public static final String FILE = "settings.json";
    public static final String SCHEMA_FILE = "settings.schema.json";

    private final Path file;
    private final AtomicFiles files;

    public SettingsStore(Path dataDir, AtomicFiles files) {
        this.file = dataDir.resolve(FILE);
        this.files = files;
    }

    public Path file() {
        return file;
    }

    public SettingsStore(Path dataDir) {
        this(dataDir, AtomicFiles.SYSTEM);
    }

    /** The settings and, if the file was unreadable, why the defaults are used instead. */
    public record Loaded(Settings settings, Optional<String> warning) {
    }

    public Loaded load() {
        if (!Files.exists(file)) {
            return new Loaded(Settings.DEFAULTS, Optional.empty());
        }
        try {
            // Start from the defaults so fields missing from an older file keep their default.
            java.util.Map<?, ?> defaults = Json.mapper().convertValue(Settings.DEFAULTS, java.util.LinkedHashMap.class);
            // A list in the file replaces the default's, not appended to it (an update merges lists): a missing
            // one is filled by Settings itself (secret_env_patterns' defaults, no default_rules).
            defaults.values().removeIf(v -> v instanceof java.util.List);
            ObjectReader reader = Json.mapper().readerForUpdating(defaults);
            java.util.Map<?, ?> merged = reader.readValue(file.toFile());
            return new Loaded(Json.mapper().convertValue(merged, Settings.class), Optional.empty());
        } catch (JacksonException e) {
            return new Loaded(Settings.DEFAULTS, Optional.of(file + " is not valid JSON (" + e.getOriginalMessage()
                    + "); using the default settings until they are saved again"));
        } catch (IllegalArgumentException e) {
            // convertValue's failure: valid JSON with a value of the wrong kind ("poll_ms": "fast", a rule without a pattern).
            return new Loaded(Settings.DEFAULTS, Optional.of(file + " has a value runboard cannot use (" + firstLine(e.getMessage())
                    + "); using the default settings until they are saved again"));
        } catch (IOException e) {
            return new Loaded(Settings.DEFAULTS, Optional.of("could not read " + file + ": " + e.getMessage()));
        }
    }

    /**
     * As {@link #load()}, and on first use writes the file with every default (and its schema),
     * so a person finds every key to edit. A failure to write is the warning; the defaults apply.
     */
    public Loaded loadOrCreate() {
        if (Files.exists(file)) {
            return load();
        }
        try {
            save(Settings.DEFAULTS);
            return new Loaded(Settings.DEFAULTS, Optional.empty());
        } catch (StoreException e) {
            return new Loaded(Settings.DEFAULTS, Optional.of("could not write the default settings to " + file + ": "
                    + (e.getCause() == null ? e.getMessage() : e.getCause().getMessage())));
        }
    }

    /**
     * Sets one key from text as a person writes it ({@code 5s}, {@code 2G}, {@code dark}) and saves.
     *
     * @throws IllegalArgumentException naming the key or value and what is allowed
     */
    public Settings set(String key, String value) throws StoreException {
        JsonNode parsed = SettingKeys.named(key).parse(value);
        Loaded current = loadOrCreate();
        ObjectNode tree = Json.mapper().valueToTree(current.settings());
        tree.set(key, parsed);
        Settings updated = Json.mapper().convertValue(tree, Settings.class);
        save(updated);
        return updated;
    }

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("").strip();
    }

    public void save(Settings settings) throws StoreException {
        try {
            DataDirs.createPrivateDirectories(file.getParent());
            files.write(file, Json.mapper().writeValueAsBytes(settings));
            // Written again each save (a few KiB, on a rare write): a newer key's description, and a file
            // someone made readable to others is private again.
            files.write(file.resolveSibling(SCHEMA_FILE), Json.mapper().writeValueAsBytes(SettingKeys.schema()));
        } catch (IOException e) {
            throw new StoreException("could not save settings", e);
        }
    }
}
