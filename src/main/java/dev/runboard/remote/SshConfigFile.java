package dev.runboard.remote;

import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The config file runboard gives ssh ({@code -F}), generated in runboard's control folder. ssh's
 * {@code -F} replaces the user's {@code ~/.ssh/config} and the system's {@code /etc/ssh/ssh_config},
 * so the file {@code Include}s them back, in the order ssh itself reads them, after the extra file
 * named in the settings ({@code ssh_config}) when there is one; the file {@code RUNBOARD_SSH_CONFIG}
 * names stands for the user's. Only then come runboard's own defaults, in a last {@code Host *}: for
 * each option ssh keeps the first value it finds, so every setting of the user's wins over them
 * (an {@code -o} on the command line would win over the user's instead).
 *
 * <p>The defaults are keep-alives that notice a silent network within seconds: ssh sends one after
 * {@value #ALIVE_INTERVAL} s without a word from the server and gives up after {@value #ALIVE_COUNT}
 * unanswered ones, so a blackholed link ends the connection (and the sessions read
 * {@code disconnected}) about {@value #ALIVE_INTERVAL} × ({@value #ALIVE_COUNT} + 1) s after it went
 * silent, where OpenSSH's own default waits for TCP's timeouts (minutes).
 */
final class SshConfigFile {
    static final Path SYSTEM = Path.of("/etc/ssh/ssh_config");
    static final int ALIVE_INTERVAL = 2;
    static final int ALIVE_COUNT = 2;
    static final int CONNECT_TIMEOUT = 10;

    private SshConfigFile() {
    }

    /**
     * Writes the file for {@code ssh -F} and returns it.
     *
     * @param replacement a file used instead of ~/.ssh/config ({@code RUNBOARD_SSH_CONFIG}), or null
     * @param extra a file read before it (the {@code ssh_config} setting), or null
     */
    static Path of(Path controlDir, Path replacement, Path extra) throws IOException {
        StringBuilder text = new StringBuilder("# Written by runboard for its ssh calls (-F): the ssh_config setting's"
                + " file, the user's, the system's; then runboard's defaults, which only fill what they leave unset.\n");
        if (extra != null) {
            text.append("Include ").append(quoted(extra.toAbsolutePath().toString())).append('\n');
        }
        text.append("Include ").append(replacement == null ? "~/.ssh/config" : quoted(replacement.toAbsolutePath().toString()))
                .append('\n');
        text.append("Include ").append(SYSTEM).append('\n');
        text.append("Host *\n")
                .append("  ServerAliveInterval ").append(ALIVE_INTERVAL).append('\n')
                .append("  ServerAliveCountMax ").append(ALIVE_COUNT).append('\n')
                .append("  ConnectTimeout ").append(CONNECT_TIMEOUT).append('\n');
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
