package dev.runboard.ui.prefs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.Json;
import dev.runboard.store.SettingKeys;
import dev.runboard.store.Settings;
import dev.runboard.store.SettingsStore;
import dev.runboard.ui.common.UiTasks;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import javafx.beans.binding.Bindings;
import javafx.beans.binding.StringBinding;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * The Preferences window's state (FX thread only): one text per setting, as {@code runboard config}
 * reads it, checked by the same {@link SettingKeys}; saving goes through {@link SettingsStore} in
 * the background, so the window and the CLI write the file the same way.
 */
public final class PreferencesViewModel {
    /** The keys the window edits, in its order (default output rules have their own editor). */
    static final List<String> KEYS = List.of("theme", "default_nice", "default_grace_ms", "default_timeout_ms",
            "keep_finished", "keep_artifact_bytes");

    private final SettingsStore store;
    private final UiTasks tasks;
    private final Map<String, StringProperty> fields = new LinkedHashMap<>();
    private final Map<String, String> loaded = new LinkedHashMap<>();
    private final Map<String, StringBinding> problems = new LinkedHashMap<>();
    private final StringBinding problem;
    private final java.util.function.Consumer<String> warn;

    /** {@code warn} says a failure to read or write the file (the window's status bar). */
    public PreferencesViewModel(SettingsStore store, UiTasks tasks, java.util.function.Consumer<String> warn) {
        this.store = store;
        this.tasks = tasks;
        this.warn = warn;
        for (String key : KEYS) {
            fields.put(key, new SimpleStringProperty(this, key, ""));
        }
        for (String key : KEYS) {
            StringProperty field = fields.get(key);
            problems.put(key, Bindings.createStringBinding(() -> problemOf(key, field.get()), field));
        }
        problem = Bindings.createStringBinding(this::firstProblem, fields.values().toArray(StringProperty[]::new));
    }

    /** Reads the settings off the FX thread (writing the defaults on first use), then fills the fields. */
    public CompletableFuture<Settings> load() {
        return tasks.onFx(tasks.background(() -> {
            SettingsStore.Loaded loaded = store.loadOrCreate();
            loaded.warning().ifPresent(w -> tasks.fx(() -> warn.accept(w)));
            return loaded.settings();
        }), (settings, error) -> {
            if (settings != null) {
                show(settings);
            } else {
                warn.accept("could not read the settings: " + message(error));
            }
        });
    }

    void show(Settings settings) {
        JsonNode tree = Json.mapper().valueToTree(settings);
        for (String key : KEYS) {
            String text = SettingKeys.shown(key, tree.get(key));
            loaded.put(key, text);
            fields.get(key).set(text);
        }
    }

    public StringProperty field(String key) {
        return fields.get(key);
    }

    /** What is wrong with the first invalid field, in the CLI's words; empty when every field is allowed. */
    public StringBinding problem() {
        return problem;
    }

    /**
     * What is wrong with one field, said beside it (so without the key's internal name); empty when it
     * is allowed. Every invalid field says so at once, not only the first.
     */
    public StringBinding problem(String key) {
        return problems.get(key);
    }

    private static String problemOf(String key, String text) {
        try {
            SettingKeys.named(key).parse(text);
            return "";
        } catch (IllegalArgumentException e) {
            String shown = text.strip();
            return (shown.isEmpty() ? "Empty" : "'" + shown + "' is not allowed") + ": write "
                    + SettingKeys.named(key).allowed();
        }
    }

    private String firstProblem() {
        for (String key : KEYS) {
            try {
                SettingKeys.named(key).parse(fields.get(key).get());
            } catch (IllegalArgumentException e) {
                return e.getMessage();
            }
        }
        return "";
    }

    /**
     * Saves the fields that changed, in the background, then tells {@code saved} on the FX thread
     * (after the file is written, so what it changes, such as the theme, is saved after this).
     */
    public CompletableFuture<Settings> save(java.util.function.Consumer<Settings> then) {
        Map<String, String> changed = new LinkedHashMap<>();
        for (String key : KEYS) {
            if (!fields.get(key).get().strip().equals(loaded.get(key))) {
                changed.put(key, fields.get(key).get());
            }
        }
        return tasks.onFx(tasks.background(() -> {
            Settings saved = store.loadOrCreate().settings();
            for (Map.Entry<String, String> e : changed.entrySet()) {
                saved = store.set(e.getKey(), e.getValue());
            }
            return saved;
        }), (saved, error) -> {
            if (saved != null) {
                show(saved);
                then.accept(saved);
            } else {
                warn.accept("could not save the settings: " + message(error));
            }
        });
    }

    private static String message(Throwable error) {
        Throwable cause = error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error;
        return cause.getCause() != null && cause instanceof dev.runboard.store.StoreException
                ? cause.getMessage() + " (" + cause.getCause().getMessage() + ")" : String.valueOf(cause.getMessage());
    }

    /** The allowed values of a key, for its tooltip. */
    static String allowed(String key) {
        return SettingKeys.named(key).allowed();
    }

    static String description(String key) {
        return SettingKeys.named(key).description();
    }

    static List<String> keys() {
        return new ArrayList<>(KEYS);
    }

}
