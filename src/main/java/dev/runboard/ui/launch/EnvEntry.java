package dev.runboard.ui.launch;

import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/** One key/value row of the dialog's environment editor. */
public final class EnvEntry {
    private final StringProperty key = new SimpleStringProperty(this, "key", "");
    private final StringProperty value = new SimpleStringProperty(this, "value", "");

    public EnvEntry(String key, String value) {
        this.key.set(key);
        this.value.set(value);
    }

    public StringProperty keyProperty() {
        return key;
    }

    public StringProperty valueProperty() {
        return value;
    }

    boolean isBlank() {
        return key.get().isBlank() && value.get().isEmpty();
    }
}
