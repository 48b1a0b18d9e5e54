package dev.runboard.ui.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The Host aliases of the user's ssh config (and of the file {@code RUNBOARD_SSH_CONFIG} names, and
 * of the extra file the {@code ssh_config} setting names), offered in the dialog's host field: every concrete name on a {@code Host} line, following
 * {@code Include}; patterns ({@code *}, {@code ?}) and negations are left out. Reads files: call it
 * off the FX thread.
 */
final class SshConfigHosts {
    private static final int MAX_INCLUDES = 16;

    private SshConfigHosts() {
    }

    static List<String> find() {
        return find(null);
    }

    /** As ssh reads them for runboard: {@code extra} (the setting's file; null when none) first. */
    static List<String> find(Path extra) {
        Set<String> hosts = new LinkedHashSet<>();
        Path home = Path.of(System.getProperty("user.home"));
        if (extra != null) {
            read(extra, home, hosts, new int[1]);
        }
        String replacement = System.getProperty("runboard.ssh.config", System.getenv("RUNBOARD_SSH_CONFIG"));
        if (replacement != null && !replacement.isBlank()) {
            read(Path.of(replacement), home, hosts, new int[1]);
        }
        read(home.resolve(".ssh/config"), home, hosts, new int[1]);
        return new ArrayList<>(hosts);
    }

    static void read(Path file, Path home, Set<String> hosts, int[] includes) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | java.io.UncheckedIOException e) {
            return; // no config, or unreadable: nothing to offer from it
        }
        for (String raw : lines) {
            String line = raw.strip();
            String[] words = line.split("[\\s=]+");
            if (words.length < 2) {
                continue;
            }
            String key = words[0].toLowerCase(Locale.ROOT);
            if (key.equals("host")) {
                for (int i = 1; i < words.length; i++) {
                    String w = words[i];
                    if (!w.isEmpty() && w.chars().noneMatch(c -> c == '*' || c == '?' || c == '!')) {
                        hosts.add(w);
                    }
                }
            } else if (key.equals("include") && includes[0]++ < MAX_INCLUDES) {
                for (int i = 1; i < words.length; i++) {
                    String w = words[i].startsWith("~/") ? home + words[i].substring(1) : words[i];
                    Path p = Path.of(w).isAbsolute() ? Path.of(w) : home.resolve(".ssh").resolve(w);
                    if (p.getFileName() != null && p.getFileName().toString().contains("*")) {
                        String glob = p.getFileName().toString();
                        try (var dir = Files.newDirectoryStream(p.getParent(), glob)) {
                            dir.forEach(f -> read(f, home, hosts, includes));
                        } catch (IOException | RuntimeException e) {
                            // an Include that matches nothing is fine for ssh too
                        }
                    } else {
                        read(p, home, hosts, includes);
                    }
                }
            }
        }
    }
}
