package dev.runboard.remote;

import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The config file runboard gives ssh. ssh's {@code -F} replaces the user's {@code ~/.ssh/config}
 * (and the system's {@code /etc/ssh/ssh_config}), so an extra file named in the settings
 * ({@code ssh_config}) is not passed alone: a small generated file in runboard's control folder
 * {@code Include}s it, then the user's config (or the file {@code RUNBOARD_SSH_CONFIG} names instead),
 * then the system's, in the order ssh itself reads them; for each option the first value found
 * wins, so the extra file's Host blocks come first. Without an extra file nothing is generated.
 */
final class SshConfigFile {
    static final Path SYSTEM = Path.of("/etc/ssh/ssh_config");

    private SshConfigFile() {
    }

    /**
     * The file for {@code ssh -F}, or null for ssh's own choice.
     *
     * @param replacement a file used instead of ~/.ssh/config ({@code RUNBOARD_SSH_CONFIG}), or null
     * @param extra a file read before it (the {@code ssh_config} setting), or null
     */
    static Path of(Path controlDir, Path replacement, Path extra) throws IOException {
        if (extra == null) {
            return replacement;
        }
        String text = "# Written by runboard for its ssh calls (-F): the ssh_config setting's file, then the user's.\n"
                + "Include " + quoted(extra.toAbsolutePath().toString()) + "\n"
                + "Include " + (replacement == null ? "~/.ssh/config" : quoted(replacement.toAbsolutePath().toString())) + "\n"
                + "Include " + SYSTEM + "\n";
        Path file = controlDir.resolve("config-" + SshCommand.shortHash(extra + "\0" + replacement));
        Path tmp = Files.createTempFile(DataDirs.createPrivateDirectories(controlDir), "config", ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return file;
    }

    /** ssh's config quoting: double quotes around an argument with spaces. */
    private static String quoted(String path) {
        return path.contains(" ") ? "\"" + path + "\"" : path;
    }
}
