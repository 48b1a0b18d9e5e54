package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.Launcher;
import dev.runboard.process.Await;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bytes that are not UTF-8 reach the command as the user had them, through {@code start}: an
 * environment value (the client's own environment, and an {@code --env}), and a working folder whose
 * name holds such a byte (the client's folder, and a {@code --cwd}). Java read each as U+FFFD:
 * the value reached the command mangled, and the folder "did not exist". The client runs as a user's
 * does, in a JVM of its own; perl sets up what Java cannot (it execs that JVM with the bytes in place).
 */
@Tag("slow")
class RawBytesTest {
    /** 0xff and 0xe9 (Latin-1 é): never UTF-8 on their own. */
    private static final byte[] VALUE = {'a', (byte) 0xff, 'b', (byte) 0xe9};

    @TempDir
    Path dir;

    @AfterEach
    void stopTheSupervisor() throws Exception {
        new SupervisorFixture(dir.resolve("data")).close();
    }

    /** Runs {@code runboard ARGS} through perl, which makes the folder {@code caf\xe9}, enters it, sets RAW and execs the JVM. */
    private String start(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("perl", "-e",
                "mkdir \"$ENV{T}/caf\\xe9\"; chdir \"$ENV{T}/caf\\xe9\" or die $!; $ENV{RAW} = \"a\\xffb\\xe9\";"
                        + " s/\\@BYTE\\@/\\xe9/g for @ARGV; exec @ARGV or die $!",
                ProcessHandle.current().info().command().orElse("java"), "-cp", System.getProperty("java.class.path"),
                Launcher.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        pb.environment().put("T", dir.toString());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }

    @Test
    void environmentBytesAndAFolderNamedInBytesReachTheCommandAsTheyAre() throws Exception {
        Path data = dir.resolve("data");
        byte[] folder = (dir + "/caf").getBytes(StandardCharsets.UTF_8);
        byte[] expectedFolder = java.util.Arrays.copyOf(folder, folder.length + 1);
        expectedFolder[folder.length] = (byte) 0xe9;

        // From the client's own environment and folder.
        String first = start("start", "--data-dir", data.toString(), "--shell", "/bin/sh", "--",
                "printf %s \"$RAW\" > ../env.out; pwd > ../cwd.out");
        // From --env and --cwd given on the command line (perl puts the byte in for @BYTE@), from another folder.
        String second = start("start", "--data-dir", data.toString(), "--shell", "/bin/sh", "--env", "GIVEN=x@BYTE@y",
                "--cwd", dir + "/caf@BYTE@", "--", "printf %s \"$GIVEN\" > ../given.out; pwd > ../cwd2.out");

        SupervisorClient client = SupervisorClient.forDataDir(data);
        for (String id : List.of(first, second)) {
            JsonNode last = client.await(id).json();
            assertEquals("completed", last.path("status").asText(), last.toString());
        }
        // The record keeps them as they are too (escaped: a lone surrogate per byte, RawText), so a rerun has them.
        JsonNode spec = client.show(second).json();
        assertEquals("x\udce9y", spec.path("env").path("GIVEN").asText(), spec.toString());
        assertEquals(dir + "/caf\udce9", spec.path("cwd").asText(), spec.toString());
        assertArrayEquals(VALUE, Files.readAllBytes(dir.resolve("env.out")), "the client's environment value");
        assertArrayEquals(new byte[] {'x', (byte) 0xe9, 'y'}, Files.readAllBytes(dir.resolve("given.out")), "--env's value");
        for (String out : List.of("cwd.out", "cwd2.out")) {
            byte[] pwd = Files.readAllBytes(dir.resolve(out));
            assertArrayEquals(expectedFolder, java.util.Arrays.copyOf(pwd, pwd.length - 1), out + ": the folder named in bytes");
        }
        Await.until(Duration.ofSeconds(5), "the launch files gone", () -> {
            try (var all = Files.walk(data)) {
                return all.noneMatch(p -> p.getFileName().toString().equals("launch.raw"));
            } catch (java.io.IOException e) {
                return false;
            }
        });
    }
}
