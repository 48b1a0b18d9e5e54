package dev.runboard.workspace;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.store.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The folders opened as workspaces, most recent first, in {@code recent-workspaces.json} under the
 * data dir. A missing or damaged file is an empty list; the list is short (10).
 */
public final class RecentWorkspaces {
    public static final String FILE_NAME = "recent-workspaces.json";
    public static final int MAX = 10;
    private final Path file;

    public RecentWorkspaces(Path file) {
        this.file = file;
    }

    public static RecentWorkspaces inDataDir(Path dataDir) {
        return new RecentWorkspaces(dataDir.resolve(FILE_NAME));
    }

    public Path file() {
        return file;
    }

    public List<Path> list() {
        List<Path> out = new ArrayList<>();
        try {
            JsonNode node = Json.mapper().readTree(Files.readString(file, StandardCharsets.UTF_8)).path("workspaces");
            node.forEach(n -> {
                if (n.isTextual() && !n.asText().isBlank() && n.asText().indexOf('\0') < 0) {
                    out.add(Path.of(n.asText())); // a damaged entry (not text, or with a NUL) is skipped, not the list
                }
            });
        } catch (IOException | RuntimeException e) {
            return List.of(); // first run, or a damaged file: start over rather than fail the window
        }
        return out;
    }

    /** Puts {@code folder} first and saves; returns the new list. */
    public List<Path> add(Path folder) throws IOException {
        Path abs = folder.toAbsolutePath().normalize();
        List<Path> paths = new ArrayList<>(list());
        paths.remove(abs);
        paths.add(0, abs);
        while (paths.size() > MAX) {
            paths.remove(paths.size() - 1);
        }
        dev.runboard.store.DataDirs.createPrivateDirectories(file.toAbsolutePath().getParent());
        Path tmp = Files.createTempFile(file.toAbsolutePath().getParent(), "." + FILE_NAME, ".tmp");
        try {
            Files.writeString(tmp, Json.write(Map.of("workspaces", paths.stream().map(Path::toString).toList())));
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
        return paths;
    }
}
