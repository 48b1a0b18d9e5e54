package dev.runboard;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The class-data archive of a window opened from a bare {@code java -jar}: trained by the first window, in place
 * for the next one once the first has ended, made again when the jar changes, never mapped half-written.
 */
class WindowArchiveTest {
    private static final String TRAIN = "-XX:ArchiveClassesAtExit=";
    private static final String MAP = "-XX:SharedArchiveFile=";

    @TempDir
    Path dir;
    private Path jar;
    private Path javaHome;
    private WindowArchive archive;
    /** Waiting JVMs are told apart by pid, and a file whose JVM is gone is removed: these two are alive. */
    private final long waiterPid = ProcessHandle.current().pid();
    private final long otherLivingPid = ProcessHandle.current().parent().orElseThrow().pid();

    @BeforeEach
    void aJarWithItsLibraries() throws Exception {
        jar = Files.writeString(Files.createDirectories(dir.resolve("app")).resolve("runboard.jar"), "jar");
        Files.writeString(Files.createDirectories(dir.resolve("app/lib")).resolve("javafx-base.jar"), "lib");
        javaHome = dir.resolve("jdk");
        Files.writeString(Files.createDirectories(javaHome.resolve("bin")).resolve("java"), "java");
        for (Path made : List.of(jar, dir.resolve("app/lib/javafx-base.jar"), javaHome.resolve("bin/java"))) {
            Files.setLastModifiedTime(made, FileTime.from(Instant.now().minusSeconds(3600)));
        }
        archive = WindowArchive.forJar(jar, Map.of("XDG_CACHE_HOME", dir.resolve("cache").toString()),
                javaHome.toString(), "17.0.13+11-Debian-2deb12u1").orElseThrow();
    }

    @Test
    void theFirstWindowWritesTheArchiveAndTheNextMapsIt() throws Exception {
        List<String> first = archive.options(waiterPid, true);

        assertEquals(2, first.size(), first.toString());
        assertTrue(first.get(0).startsWith(TRAIN), first.toString());
        Path training = Path.of(first.get(0).substring(TRAIN.length()));
        assertEquals(dir.resolve("cache/runboard/v2"), training.getParent());
        assertFalse(Files.exists(archive.file()));

        byte[] classes = {1, 2, 3, 4};
        Files.write(training, classes); // what the window's JVM writes at its exit
        assertTrue(archive.options(otherLivingPid, true).get(0).startsWith(TRAIN), "not mapped before the first JVM moves it in place");
        assertTrue(Files.exists(training), "its first JVM still waits for its window");
        archive.settle(waiterPid);

        assertArrayEquals(classes, Files.readAllBytes(archive.file()));
        assertFalse(Files.exists(training));
        assertEquals(List.of(MAP + archive.file(), "-Xlog:cds=off", "-Xlog:cds+dynamic=off"), archive.options(otherLivingPid, true));
    }

    @Test
    void aNewerJarLibraryOrJavaMakesItAgain() throws Exception {
        Files.createDirectories(archive.file().getParent());
        for (Path changed : List.of(jar, dir.resolve("app/lib/javafx-base.jar"), javaHome.resolve("bin/java"))) {
            Files.write(archive.file(), new byte[] {9});
            assertTrue(archive.options(1, true).get(0).startsWith(MAP));

            Files.setLastModifiedTime(changed, FileTime.from(Instant.now().plusSeconds(60)));

            assertTrue(archive.options(1, true).get(0).startsWith(TRAIN), changed + " is newer than the archive");
            assertFalse(Files.exists(archive.file()), "the stale archive is gone");
            Files.setLastModifiedTime(changed, FileTime.from(Instant.now().minusSeconds(3600)));
        }
    }

    @Test
    void nothingIsTrainedWhereNoWindowCanOpenAndAnEmptyFileIsNoArchive() throws Exception {
        assertEquals(List.of(), archive.options(waiterPid, false));

        List<String> options = archive.options(waiterPid, true);
        Files.createFile(Path.of(options.get(0).substring(TRAIN.length()))); // a window that ended before writing
        archive.settle(waiterPid);

        assertFalse(Files.exists(archive.file()));
        assertTrue(archive.options(waiterPid, true).get(0).startsWith(TRAIN));
    }

    @Test
    void aFileLeftByAFirstJvmThatDiedIsRemovedNotMapped() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        Path orphan = Path.of(archive.options(ended.pid(), true).get(0).substring(TRAIN.length()));
        Files.write(orphan, new byte[] {1});
        Path living = Path.of(archive.options(waiterPid, true).get(0).substring(TRAIN.length()));
        Files.write(living, new byte[] {2});

        List<String> next = archive.options(otherLivingPid, true);

        assertTrue(next.get(0).startsWith(TRAIN), "no archive is mapped from a file no JVM moved in place");
        assertFalse(Files.exists(orphan), "its first JVM is gone: nobody will move it");
        assertTrue(Files.exists(living), "its first JVM still waits for its window");
    }

    @Test
    void oneArchivePerJarAndJvmBuildInTheUsersCache() {
        Path other = WindowArchive.forJar(jar, Map.of("HOME", dir.resolve("home").toString()), javaHome.toString(), "17.0.14+7")
                .orElseThrow().file();

        assertEquals(dir.resolve("home/.cache/runboard/v2"), other.getParent());
        assertTrue(other.getFileName().toString().contains("17.0.14+7"), other.toString());
        assertTrue(archive.file().getFileName().toString().startsWith(jar.toString().replace('/', '%')), archive.file().toString());
        assertTrue(WindowArchive.forJar(jar, Map.of(), javaHome.toString(), "17").isEmpty(), "no cache folder, no archive");
    }

    @Test
    void aRelativeXdgCacheHomeIsIgnoredAsTheSpecSays() {
        Path file = WindowArchive.forJar(jar, Map.of("XDG_CACHE_HOME", "cache", "HOME", dir.resolve("home").toString()),
                javaHome.toString(), "17").orElseThrow().file();

        assertEquals(dir.resolve("home/.cache/runboard/v2"), file.getParent(), "not ./cache/runboard of whatever folder the window starts in");
    }
}
