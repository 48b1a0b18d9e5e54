package dev.runboard.engine;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command that starts a data dir's supervisor: this JVM's {@code java} with this class path,
 * in a session of its own ({@code setsid}), so that neither a terminal's hangup nor Ctrl-C on the
 * client that started it reaches it. Its heap is kept small: it holds records, not output.
 */
final class SupervisorLauncher {
    private SupervisorLauncher() {
    }

    static List<String> command(Path dataDir) {
        List<String> argv = new ArrayList<>(List.of("setsid"));
        String packaged = System.getProperty("jpackage.app-path");
        if (packaged != null && !packaged.isBlank()) {
            // jpackage's launchers know their runtime and class path; the supervisor's own one
            // (packaging/supervisor-launcher.properties) carries the heap options below.
            Path own = Path.of(packaged).resolveSibling("runboard-supervisor");
            argv.add(java.nio.file.Files.isExecutable(own) ? own.toString() : packaged);
        } else {
            argv.addAll(List.of(ProcessHandle.current().info().command().orElse("java"),
                    // A small heap that grows only as needed: its live data is a few MB even with 200
                    // sessions, but the default initial heap (1/64 of RAM) let the young generation
                    // fill 100+ MB with garbage (200 sessions: 200 MB RSS; 98 MB with these).
                    "-XX:+UseSerialGC", "-Xss512k", "-XX:TieredStopAtLevel=1", "-Xms16m", "-XX:MaxNewSize=24m",
                    "-XX:MaxHeapFreeRatio=20", "-XX:MinHeapFreeRatio=5", "-Xmx512m"));
            // bin/runboard's class-data archive fits this same class path: the supervisor starts faster with it.
            String archive = System.getProperty("runboard.shared-archive");
            if (archive != null && !archive.isBlank()) {
                argv.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off"));
            }
            // The ssh config this client was told to use reaches the supervisor that runs its remote sessions.
            String sshConfig = System.getProperty("runboard.ssh.config");
            if (sshConfig != null && !sshConfig.isBlank()) {
                argv.add("-Drunboard.ssh.config=" + sshConfig);
            }
            // Likewise the slurm.conf (tests: a private one-node cluster) for its Slurm sessions.
            String slurmConf = System.getProperty("runboard.slurm.conf");
            if (slurmConf != null && !slurmConf.isBlank()) {
                argv.add("-Drunboard.slurm.conf=" + slurmConf);
            }
            argv.addAll(List.of("-cp", classPath(), "dev.runboard.Launcher"));
        }
        argv.addAll(List.of("supervisor", "run", "--data-dir", dataDir.toString()));
        return argv;
    }

    /** The class path, plus the module path when this JVM was started with one ({@code javafx:run}). */
    private static String classPath() {
        Set<String> entries = new LinkedHashSet<>();
        for (String key : List.of("java.class.path", "jdk.module.path")) {
            String value = System.getProperty(key);
            if (value != null && !value.isBlank()) {
                entries.addAll(List.of(value.split(File.pathSeparator)));
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
