package dev.runboard.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;

/**
 * What the data dir fault tests need root for: a tmpfs of a given size (to fill up, or to make
 * read-only), {@code chattr +i}, {@code chown}. Each step is an assumption: without root, or where
 * the machine will not do it (no mount in a container), the test is skipped with the reason
 * printed. Closing undoes what was done, in reverse order.
 */
final class RootTools implements AutoCloseable {
    private final List<List<String>> undo = new ArrayList<>();

    static boolean isRoot() {
        try {
            return Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid"));
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    static void assumeRoot(String forWhat) {
        Assumptions.assumeTrue(isRoot(), "skipped: " + forWhat + " needs root (this test runs as "
                + System.getProperty("user.name") + ")");
    }

    /** Mounts a tmpfs of {@code size} (as mount(8) reads it: 1m) at {@code dir}, mode 0700. */
    void mountTmpfs(Path dir, String size) throws IOException, InterruptedException {
        assumeRoot("mounting a tmpfs");
        Files.createDirectories(dir);
        Result r = run("mount", "-t", "tmpfs", "-o", "size=" + size + ",mode=700", "tmpfs", dir.toString());
        Assumptions.assumeTrue(r.exit == 0, "skipped: cannot mount a tmpfs here: " + r.output.strip());
        undo.add(List.of("umount", dir.toString()));
    }

    void remountReadOnly(Path dir) throws IOException, InterruptedException {
        Result r = run("mount", "-o", "remount,ro", dir.toString());
        Assumptions.assumeTrue(r.exit == 0, "skipped: cannot remount a tmpfs read-only here: " + r.output.strip());
    }

    /** Makes a file immutable: not even root may write it, and so not append to it. */
    void makeImmutable(Path file) throws IOException, InterruptedException {
        assumeRoot("chattr +i");
        Result r = run("chattr", "+i", file.toString());
        Assumptions.assumeTrue(r.exit == 0, "skipped: chattr +i does not work here: " + r.output.strip());
        undo.add(List.of("chattr", "-i", file.toString()));
    }

    void chown(Path file, String owner) throws IOException, InterruptedException {
        assumeRoot("chown");
        Result r = run("chown", owner, file.toString());
        Assumptions.assumeTrue(r.exit == 0, "skipped: cannot chown here: " + r.output.strip());
        undo.add(List.of("chown", "root:root", file.toString()));
    }

    record Result(int exit, String output) {
    }

    static Result run(String... argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Result(p.waitFor(), out);
    }

    @Override
    public void close() throws IOException, InterruptedException {
        List<String> failures = new ArrayList<>();
        for (int i = undo.size() - 1; i >= 0; i--) {
            List<String> step = undo.get(i);
            Result r = run(step.toArray(String[]::new));
            if (r.exit != 0 && step.get(0).equals("umount")) {
                r = run("umount", "-l", step.get(1)); // something still holds it: detach it now, freed when let go
            }
            if (r.exit != 0) {
                failures.add(String.join(" ", step) + ": " + r.output.strip());
            }
        }
        undo.clear();
        if (!failures.isEmpty()) {
            throw new IOException("could not undo: " + failures);
        }
    }
}
