package dev.runboard.ui;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.runboard.store.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;

/**
 * How the person left the window: its place and size, the split positions, the column widths, the
 * columns they hid, and whether quitting with running sessions should still ask. Kept in
 * {@code ui-state.json} in the data dir; a missing or damaged file means the defaults (the window
 * is never refused for it).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record WindowState(
        @JsonProperty("x") double x,
        @JsonProperty("y") double y,
        @JsonProperty("width") double width,
        @JsonProperty("height") double height,
        @JsonProperty("maximized") boolean maximized,
        @JsonProperty("splits") Map<String, Double> splits,
        @JsonProperty("columns") Map<String, Double> columns,
        @JsonProperty("hidden_columns") List<String> hiddenColumns,
        @JsonProperty("ask_before_quit") boolean askBeforeQuit) {
    public static final String FILE_NAME = "ui-state.json";
    public static final WindowState NONE = new WindowState(Double.NaN, Double.NaN, 0, 0, false, Map.of(), Map.of(), List.of(), true);

    public WindowState {
        splits = splits == null ? Map.of() : Map.copyOf(splits);
        columns = columns == null ? Map.of() : Map.copyOf(columns);
        hiddenColumns = hiddenColumns == null ? List.of() : List.copyOf(hiddenColumns);
    }

    public boolean hasBounds() {
        return width > 0 && height > 0 && !Double.isNaN(x) && !Double.isNaN(y);
    }

    public WindowState withAskBeforeQuit(boolean ask) {
        return new WindowState(x, y, width, height, maximized, splits, columns, hiddenColumns, ask);
    }

    public static WindowState load(Path dataDir) {
        try {
            return Json.mapper().readValue(Files.readString(dataDir.resolve(FILE_NAME), StandardCharsets.UTF_8), WindowState.class);
        } catch (IOException | RuntimeException e) {
            return NONE; // first run or a damaged file: the window opens as new
        }
    }

    /**
     * Writes the file atomically (call off the FX thread). A data dir that is gone is not made again for it: the
     * window's place is not worth a folder (a test's, deleted as its window closed, came back holding only this file).
     */
    public void save(Path dataDir) throws IOException {
        if (!Files.isDirectory(dataDir)) {
            return;
        }
        dev.runboard.store.DataDirs.createPrivateDirectories(dataDir);
        Path tmp = Files.createTempFile(dataDir, "." + FILE_NAME, ".tmp");
        try {
            Files.writeString(tmp, Json.write(this));
            Files.move(tmp, dataDir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
