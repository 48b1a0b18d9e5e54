package dev.runboard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.engine.SocketPlaces;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the README states that the code can contradict, held to the code so that it cannot go stale unnoticed
 * (issue 47 found four such statements). The layer order itself is enforced on the classes by ArchitectureTest,
 * from the same paragraph ({@link ReadmeLayers}); here, that the paragraph names every package and nothing else.
 */
class ReadmeTruthTest {
    private static final Path PACKAGES = Path.of("src/main/java/dev/runboard");

    @Test
    void theLayersParagraphNamesEveryPackageAndNothingElse() throws IOException {
        List<String> layers = ReadmeLayers.lowestFirst();
        TreeSet<String> packages = new TreeSet<>();
        try (Stream<Path> children = Files.list(PACKAGES)) {
            children.filter(Files::isDirectory).forEach(dir -> packages.add(dir.getFileName().toString()));
        }
        List<String> unnamed = new ArrayList<>(packages);
        unnamed.removeAll(layers);
        assertTrue(unnamed.isEmpty(), "README.md's Layers paragraph does not name the package(s) " + unnamed
                + " under " + PACKAGES + ": name each in backticks at its place, above every package it imports");
        List<String> notPackages = new ArrayList<>(layers);
        notPackages.removeAll(packages);
        assertTrue(notPackages.isEmpty(), "README.md's Layers paragraph names " + notPackages + " in backticks, and no"
                + " such package is under " + PACKAGES + " (its backticked lowercase words are read as layers: "
                + ReadmeLayers.class.getSimpleName() + ")");
    }

    /**
     * The socket is {@code supervisor.sock} in the data dir only without a private runtime dir; with one it is
     * {@code $XDG_RUNTIME_DIR/runboard/supervisor-HASH.sock}. Issue 47: the README named only the first.
     */
    @Test
    void theSupervisorSocketIsNamedAsTheCodeNamesIt(@TempDir Path tmp) throws IOException {
        String readme = Files.readString(ReadmeLayers.README);
        Path dataDir = tmp.resolve("data");
        Path runtime = Files.createDirectory(tmp.resolve("run"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));

        Path inDataDir = SocketPlaces.supervisor(dataDir, null);
        assertEquals(dataDir, inDataDir.getParent(), "without a runtime dir the socket is in the data dir");
        String bare = inDataDir.getFileName().toString();
        assertTrue(Pattern.compile("(?m)^" + Pattern.quote(bare) + "\\s").matcher(readme).find(),
                "README.md's list of the data dir's files names its socket " + bare);

        String inRuntime = runtime.relativize(SocketPlaces.supervisor(dataDir, runtime.toString())).toString();
        Matcher said = Pattern.compile("\\$XDG_RUNTIME_DIR/([^\\s<`]*supervisor[^\\s<`]*?(?:<[^>]*>)?[^\\s<`]*?\\.sock)")
                .matcher(readme);
        int forms = 0;
        while (said.find()) {
            forms++;
            String form = said.group(1);
            String asPattern = Stream.of(form.split("<[^>]*>", -1)).map(Pattern::quote)
                    .reduce((a, b) -> a + "[0-9a-f]+" + b).orElseThrow();
            assertTrue(inRuntime.matches(asPattern), "README.md names the socket $XDG_RUNTIME_DIR/" + form
                    + ", where the code makes $XDG_RUNTIME_DIR/" + inRuntime);
        }
        assertTrue(forms > 0, "README.md never says that with $XDG_RUNTIME_DIR set the socket is $XDG_RUNTIME_DIR/"
                + inRuntime.replaceAll("[0-9a-f]{8,}", "<hash of the data dir>"));

        // Wherever the data dir's name appears, the runtime dir's form is said with it (within a few lines).
        Pattern runtimeForm = Pattern.compile(Pattern.quote("$XDG_RUNTIME_DIR/") + "\\S*supervisor");
        for (int at = readme.indexOf(bare); at >= 0; at = readme.indexOf(bare, at + 1)) {
            String after = readme.substring(at, Math.min(readme.length(), at + 300));
            assertTrue(runtimeForm.matcher(after).find(), "README.md names " + bare + " without saying that with"
                    + " $XDG_RUNTIME_DIR set the socket is there instead: " + after.lines().findFirst().orElse(""));
        }
    }

    /**
     * {@code exec} prints its final snapshot as JSON, the command's output inside it ({@code output}), never the
     * output alone (ExecStdinTest, RemoteCliTest). Issue 47: the README said {@code exec -- cat} prints {@code hi}.
     */
    @Test
    void anExecOfCatIsSaidToPrintItsJsonWithTheOutputInside() throws IOException {
        String readme = Files.readString(ReadmeLayers.README);
        Matcher bareOutput = Pattern.compile("prints\\s+`hi`").matcher(readme);
        assertFalse(bareOutput.find(), () -> "README.md says a command prints `hi` alone: exec prints its JSON, with"
                + " `hi` as the session's `output`: " + readme.substring(Math.max(0, bareOutput.start() - 80),
                        bareOutput.end()).replaceAll("\\s+", " "));
        // Each `... runboard exec ... -- cat ...` example: the rest of its clause (to ; or ) or a sentence's end)
        // says what exec prints.
        Matcher example = Pattern.compile("`([^`]*runboard exec[^`]*-- cat[^`]*)`").matcher(readme);
        int examples = 0;
        while (example.find()) {
            examples++;
            String rest = readme.substring(example.end());
            Matcher end = Pattern.compile(";|\\)|\\.\\s|\\n\\n").matcher(rest);
            String clause = (end.find() ? rest.substring(0, end.start()) : rest).replaceAll("\\s+", " ");
            assertTrue(clause.contains("JSON") && clause.contains("`output`"), "README.md's example `"
                    + example.group(1) + "` must say exec prints its JSON with the input in `output`; it says:" + clause);
        }
        assertTrue(examples > 0, "README.md's `echo hi | runboard exec ... -- cat` examples (local and --host) were"
                + " not found: if they were reworded, make this test find them again");
    }
}
