package dev.runboard.store;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Settings in {@code <data>/settings.json}, written atomically; an unreadable file falls back to defaults with a warning. */
public final class SettingsStore {
    private final Path file;
    private final AtomicFiles files;

    public SettingsStore(Path dataDir, AtomicFiles files) {
        this.file = dataDir.resolve("settings.json");
        this.files = files;
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
            ObjectReader reader = Json.mapper().readerForUpdating(Json.mapper().convertValue(Settings.DEFAULTS,
                    java.util.LinkedHashMap.class));
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

    private static String firstLine(String message) {
        return message == null ? "" : message.lines().findFirst().orElse("").strip();
    }

    public void save(Settings settings) throws StoreException {
        try {
            DataDirs.createPrivateDirectories(file.getParent());
            files.write(file, Json.mapper().writeValueAsBytes(settings));
        } catch (IOException e) {
            throw new StoreException("could not save settings", e);
        }
    }
}
