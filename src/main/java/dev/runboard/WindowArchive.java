package dev.runboard;

import dev.runboard.store.DataDirs;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The class-data archive of a window opened from a bare {@code java -jar} (WindowRelaunch), as bin/runboard
 * keeps one for its own: the window's classes (JavaFX, the controls, the engine) mapped in ready-made instead
 * of read from the jars and verified, which brought its first frame 0.3-0.6 s sooner on two cores
 * (docs/BENCHMARKS.md §14). JDK 17 cannot make one before the first start: a window run writes it when it
 * closes ({@code -XX:ArchiveClassesAtExit}, a few seconds' work), into a file named after the JVM waiting for
 * it, which moves it in place once the window is gone; later windows map it. It lives in the user's cache
 * ($XDG_CACHE_HOME/runboard, else ~/.cache/runboard), one per jar and JVM build, and is made again when it is
 * older than the jar, one of its lib/ jars or the java binary. Nothing here fails the window: without an
 * archive it starts as it would have, and a file that does not fit is ignored by the JVM.
 */
final class WindowArchive {
    private final Path archive;
    private final List<Path> madeFrom;

    private WindowArchive(Path archive, List<Path> madeFrom) {
        this.archive = archive;
        this.madeFrom = madeFrom;
    }

    /** The archive for this jar and JVM build, or empty where the user has no cache folder. */
    static Optional<WindowArchive> forJar(Path jar, Map<String, String> environment, String javaHome, String vmVersion) {
        String home = environment.getOrDefault("HOME", "");
        Optional<Path> base = DataDirs.xdgBase(environment, "XDG_CACHE_HOME")
                .or(() -> home.isEmpty() ? Optional.empty() : Optional.of(Path.of(home, ".cache")));
        if (base.isEmpty()) {
            return Optional.empty();
        }
        Path cache = base.get().resolve("runboard").resolve("v2"); // bin/runboard's private cache folder (0700)
        String key = jar.toString().replace('/', '%') + "." + vmVersion.replaceAll("[^A-Za-z0-9.+_-]", "_");
        List<Path> madeFrom = new ArrayList<>(List.of(Path.of(javaHome, "bin", "java"), jar));
        Path lib = jar.resolveSibling("lib");
        if (Files.isDirectory(lib)) {
            try (DirectoryStream<Path> jars = Files.newDirectoryStream(lib, "*.jar")) {
                jars.forEach(madeFrom::add);
            } catch (IOException | RuntimeException e) {
                // unreadable lib/: judged on the jar and the JVM alone
            }
        }
        return Optional.of(new WindowArchive(cache.resolve(key + ".window.jsa"), List.copyOf(madeFrom)));
    }

    Path file() {
        return archive;
    }

    /**
     * The JVM options for the window's JVM: map the archive where one fits what it was made from, else have
     * this window write one at its exit (where a window can open: a start that fails for want of a display
     * would archive that failure's classes), else nothing. Removes what a window was writing for a first
     * JVM that did not live to move it (the window may still be writing it: it is not mapped half-made).
     *
     * @param waiterPid the pid of the JVM that will wait for the window and then call {@link #settle}
     */
    List<String> options(long waiterPid, boolean canDisplay) {
        try {
            DataDirs.createPrivateDirectories(archive.getParent());
        } catch (IOException | RuntimeException e) {
            return List.of(); // a cache that cannot be made: no archive, as without a cache
        }
        if (!DataDirs.ownedAndPrivate(archive.getParent())) {
            return List.of(); // another user's folder, or one others can write: nothing in it is mapped or written
        }
        removeLeftovers();
        if (fresh()) {
            return List.of("-XX:SharedArchiveFile=" + archive, "-Xlog:cds=off", "-Xlog:cds+dynamic=off");
        }
        try {
            Files.deleteIfExists(archive);
            Files.createDirectories(archive.getParent());
        } catch (IOException | RuntimeException e) {
            return List.of(); // a cache that cannot be written: no archive, as without a cache
        }
        if (!canDisplay || !Files.isWritable(archive.getParent())) {
            return List.of();
        }
        return List.of("-XX:ArchiveClassesAtExit=" + training(waiterPid), "-Xlog:cds*=off");
    }

    /** After the window's JVM has ended: its archive, if it wrote one, in place for the next window. */
    void settle(long waiterPid) {
        moveInPlace(training(waiterPid));
    }

    boolean fresh() {
        try {
            if (!Files.isRegularFile(archive) || Files.size(archive) == 0) {
                return false;
            }
            FileTime made = Files.getLastModifiedTime(archive);
            for (Path source : madeFrom) {
                if (Files.exists(source) && Files.getLastModifiedTime(source).compareTo(made) > 0) {
                    return false;
                }
            }
            return true;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private Path training(long waiterPid) {
        return archive.resolveSibling(trainingPrefix() + waiterPid + ".jsa");
    }

    /** What the files a window writes for its waiting JVM are named with, before that JVM's pid. */
    private String trainingPrefix() {
        String name = archive.getFileName().toString();
        return name.substring(0, name.length() - ".jsa".length()) + "-";
    }

    private void removeLeftovers() {
        String prefix = trainingPrefix();
        if (!Files.isDirectory(archive.getParent())) {
            return;
        }
        try (DirectoryStream<Path> made = Files.newDirectoryStream(archive.getParent(), prefix + "*.jsa")) {
            for (Path file : made) {
                String pid = file.getFileName().toString().substring(prefix.length()).replace(".jsa", "");
                boolean waiterGone = pid.chars().allMatch(Character::isDigit) && !pid.isEmpty()
                        && ProcessHandle.of(Long.parseLong(pid)).map(p -> !p.isAlive()).orElse(true);
                if (waiterGone) {
                    Files.deleteIfExists(file);
                }
            }
        } catch (IOException | RuntimeException e) {
            // leftovers stay until a later start can remove them
        }
    }

    /** A finished archive replaces the old one in one rename, so a window starting meanwhile never maps half a file. */
    private void moveInPlace(Path made) {
        try {
            if (Files.isRegularFile(made) && Files.size(made) > 0) {
                Files.move(made, archive, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                Files.deleteIfExists(made);
            }
        } catch (IOException | RuntimeException e) {
            // the next start tries again
        }
    }
}
