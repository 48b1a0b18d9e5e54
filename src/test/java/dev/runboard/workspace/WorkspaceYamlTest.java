package dev.runboard.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkspaceYamlTest {
    static final String EXAMPLE = """
            # A project's everyday commands.
            name: shop
            commands:
              web:
                command: npm run dev -- --port $PORT
                cwd: frontend
                env:
                  PORT: 3000
                  NODE_ENV: development
                group: dev
                autostart: true
              api:
                argv: [./mvnw, -q, spring-boot:run]
                grace: 5s
                group: dev
                pty: true
                nice: 0
              test:
                command: ./mvnw test
                timeout: 30m
                output:
                  - match: "ERROR"
                    level: error
              migrate:
                command: psql -f schema.sql
                shell: /bin/bash
                timeout: 1h30m
                grace: 1500ms
            """;

    @TempDir
    Path dir;

    @Test
    void readsEveryField() throws Exception {
        WorkspaceFile f = WorkspaceYaml.parse(EXAMPLE, Path.of("runboard.yaml"));
        assertEquals("shop", f.name());
        assertEquals(List.of("web", "api", "test", "migrate"), List.copyOf(f.commands().keySet()));
        WorkspaceCommand web = f.commands().get("web");
        assertEquals("npm run dev -- --port $PORT", web.command());
        assertEquals(Map.of("PORT", "3000", "NODE_ENV", "development"), web.env());
        assertEquals("frontend", web.cwd());
        assertTrue(web.autostarts());
        WorkspaceCommand api = f.commands().get("api");
        assertEquals(List.of("./mvnw", "-q", "spring-boot:run"), api.argv());
        assertEquals(Duration.ofSeconds(5), api.grace());
        assertEquals(Boolean.TRUE, api.pty());
        assertEquals(0, api.nice());
        assertEquals(Duration.ofMinutes(30), f.commands().get("test").timeout());
        assertEquals("error", f.commands().get("test").output().get(0).get("level").asText());
        assertEquals(Duration.ofMinutes(90), f.commands().get("migrate").timeout());
        assertEquals(Duration.ofMillis(1500), f.commands().get("migrate").grace());
    }

    @Test
    void roundTripsWithoutLosingContent() throws Exception {
        WorkspaceFile first = WorkspaceYaml.parse(EXAMPLE, Path.of("runboard.yaml"));
        Path file = dir.resolve("runboard.yaml");
        WorkspaceYaml.save(first, file);
        WorkspaceFile second = WorkspaceYaml.read(file);
        assertEquals(first, second);
        // and the saved text is stable: saving what was read writes the same bytes
        String text = Files.readString(file);
        WorkspaceYaml.save(second, file);
        assertEquals(text, Files.readString(file));
        assertTrue(text.contains("timeout: 1h30m"), text);
        assertTrue(text.contains("PORT: \"3000\""), text);
    }

    @Test
    void aHostRunsTheCommandOverSshAndRoundTrips() throws Exception {
        String yaml = "name: gpu\ncommands:\n  train:\n    command: python train.py\n    cwd: /srv/models\n    host: gpu-box\n";
        WorkspaceFile f = WorkspaceYaml.parse(yaml, Path.of("runboard.yaml"));
        assertEquals("gpu-box", f.commands().get("train").host());
        SessionSpec spec = new Workspace(dir, f).spec("train");
        assertEquals("gpu-box", spec.host());
        assertEquals(Path.of("/srv/models"), spec.cwd());
        Path file = dir.resolve("runboard.yaml");
        WorkspaceYaml.save(f, file);
        assertEquals(f, WorkspaceYaml.read(file));
        assertTrue(Files.readString(file).contains("host: gpu-box"), Files.readString(file));
    }

    @Test
    void slurmRunsTheCommandAsAJobWithItsSbatchArgumentsAndRoundTrips() throws Exception {
        String yaml = "commands:\n  train:\n    command: python train.py\n    slurm: {sbatch: [--partition=gpu, --gres=gpu:1]}\n"
                + "  quick:\n    command: make\n    slurm: true\n  here:\n    command: ls\n    slurm: false\n";
        WorkspaceFile f = WorkspaceYaml.parse(yaml, Path.of("runboard.yaml"));
        Workspace ws = new Workspace(dir, f);
        assertEquals(java.util.List.of("--partition=gpu", "--gres=gpu:1"), ws.spec("train").slurm().sbatch());
        assertEquals(java.util.List.of(), ws.spec("quick").slurm().sbatch());
        assertTrue(ws.spec("quick").isSlurm() && !ws.spec("here").isSlurm());
        Path file = dir.resolve("runboard.yaml");
        WorkspaceYaml.save(f, file);
        assertEquals(f, WorkspaceYaml.read(file));
        String written = Files.readString(file);
        assertTrue(written.contains("slurm: true") && written.contains("--partition=gpu"), written);
        WorkspaceException bad = error("commands:\n  train:\n    command: x\n    slurm: gpu\n");
        assertTrue(bad.getMessage().contains(":4:") && bad.getMessage().contains("{sbatch: [ARGS]}"), bad.getMessage());
        WorkspaceException owned = error("commands:\n  train:\n    command: x\n    slurm: {sbatch: [--partition=gpu, -o, mine.log]}\n");
        assertTrue(owned.getMessage().contains(":4:") && owned.getMessage().contains("is runboard's to set (--output)"), owned.getMessage());
    }

    @Test
    void commandsBecomeSessionSpecsWithCwdRelativeToTheFolder() throws Exception {
        Workspace ws = new Workspace(dir, WorkspaceYaml.parse(EXAMPLE, Path.of("runboard.yaml")));
        SessionSpec web = ws.spec("web");
        assertEquals(dir.resolve("frontend"), web.cwd());
        assertEquals("3000", web.env().get("PORT"));
        assertTrue(web.usesShell());
        SessionSpec api = ws.spec("api");
        assertEquals(dir, api.cwd());
        assertEquals(List.of("./mvnw", "-q", "spring-boot:run"), api.argv());
        assertTrue(api.pty(), "pty: true runs it in a pseudo-terminal");
        assertEquals(0, api.nice(), "nice: 0 runs it at normal priority");
        assertEquals(SessionSpec.BACKGROUND_NICE, web.nice(), "the sidebar's commands run in the background by default");
        assertEquals(Path.of("/bin/bash"), ws.spec("migrate").shell());
        assertEquals(Map.of("", List.of("test", "migrate"), "dev", List.of("web", "api")), ws.groups());

        // and back: a session's spec saved as a command keeps cwd relative and leaves defaults out
        WorkspaceCommand back = WorkspaceCommand.fromSpec(web, dir);
        assertEquals("frontend", back.cwd());
        assertEquals(web, back.toSpec(dir));
        assertNull(WorkspaceCommand.fromSpec(SessionSpec.shell("ls").cwd(dir).build(), dir).grace());
    }

    @Test
    void missingOrEmptyFileIsAnEmptyWorkspace() throws Exception {
        assertTrue(WorkspaceYaml.read(dir.resolve("runboard.yaml")).commands().isEmpty());
        Files.writeString(dir.resolve("runboard.yaml"), "# nothing yet\n");
        assertTrue(WorkspaceYaml.read(dir.resolve("runboard.yaml")).commands().isEmpty());
    }

    @Test
    void maxOutputIsASizeThatBoundsTheSessionAndRoundTrips() throws Exception {
        String yaml = "commands:\n  web:\n    command: npm run dev\n    max_output: 50M\n";
        WorkspaceFile f = WorkspaceYaml.parse(yaml, Path.of("runboard.yaml"));
        assertEquals(50L << 20, new Workspace(dir, f).spec("web").maxOutputBytes());
        Path file = dir.resolve("runboard.yaml");
        WorkspaceYaml.save(f, file);
        assertEquals(f, WorkspaceYaml.read(file));
        assertTrue(Files.readString(file).contains("max_output: 50M"), Files.readString(file));

        WorkspaceException small = error("commands:\n  web:\n    command: npm run dev\n    max_output: 1K\n");
        assertEquals(4, small.line(), small.getMessage());
        assertTrue(small.problem().contains("'max_output' must be at least 64 KiB"), small.problem());
    }

    @Test
    void unknownKeyNamesItsLineAndColumn() {
        WorkspaceException e = error("""
                commands:
                  web:
                    command: npm start
                    comand: typo
                """);
        assertEquals(4, e.line());
        assertEquals(5, e.column());
        assertTrue(e.problem().startsWith("unknown key 'comand' in commands.web"), e.problem());
        assertTrue(e.getMessage().startsWith("runboard.yaml:4:5: "), e.getMessage());
    }

    @Test
    void aMisspeltOnlyKeyIsNamedAtItsLineNotTakenForAMissingCommand() {
        WorkspaceException only = error("""
                commands:
                  build:
                    comand: make
                """);
        assertEquals(3, only.line(), only.getMessage());
        assertEquals(5, only.column(), only.getMessage());
        assertTrue(only.problem().startsWith("unknown key 'comand' in commands.build: did you mean 'command'? (known keys: argv, "),
                only.problem());
        assertTrue(only.getMessage().startsWith("runboard.yaml:3:5: "), only.getMessage());

        WorkspaceException beside = error("""
                commands:
                  build:
                    command: make
                    comand: make
                """);
        assertEquals(only.problem(), beside.problem(), "the same sentence as when Jackson finds the typo itself");

        WorkspaceException probe = error("""
                commands:
                  db:
                    command: x
                    ready:
                      tpc: 5432
                """);
        assertEquals(5, probe.line(), probe.getMessage());
        assertTrue(probe.problem().startsWith("unknown key 'tpc' in commands.db.ready: did you mean 'tcp'?"), probe.problem());

        WorkspaceException none = error("""
                commands:
                  build:
                    cwd: src
                """);
        assertTrue(none.problem().contains("a command needs either 'command' (a shell string) or 'argv' (a list)"),
                "with every key known, the command's own check speaks: " + none.problem());
    }

    @Test
    void badValuesNameTheirLineAndColumn() {
        WorkspaceException duration = error("""
                commands:
                  web:
                    command: npm start
                    timeout: soon
                """);
        assertEquals(4, duration.line());
        assertTrue(duration.problem().contains("'soon' is not a duration"), duration.problem());

        WorkspaceException nice = error("""
                commands:
                  web:
                    command: npm start
                    nice: 25
                """);
        assertTrue(nice.problem().contains("'nice' must be 0 (normal priority) to 19 (lowest)"), nice.problem());

        WorkspaceException bool = error("""
                commands:
                  web:
                    command: npm start
                    pty: maybe
                """);
        assertEquals(4, bool.line());
        assertTrue(bool.problem().contains("true or false"), bool.problem());

        WorkspaceException list = error("""
                commands:
                  web:
                    argv: npm start
                """);
        assertEquals(3, list.line());
        assertTrue(list.problem().contains("a list"), list.problem());

        WorkspaceException both = error("""
                commands:
                  web:
                    command: npm start
                    argv: [npm, start]
                  api:
                    command: x
                """);
        assertTrue(both.line() >= 2 && both.line() <= 5, "line " + both.line());
        assertTrue(both.problem().contains("not both"), both.problem());

        WorkspaceException dup = error("""
                commands:
                  web:
                    command: a
                  web:
                    command: b
                """);
        assertEquals(4, dup.line());
        assertTrue(dup.problem().toLowerCase().contains("duplicate"), dup.problem());

        WorkspaceException syntax = error("""
                commands:
                  web:
                    command: "unclosed
                """);
        assertTrue(syntax.line() >= 3, "line " + syntax.line());
    }

    @Test
    void aliasesMergeKeysAndTagsAreRefusedWhereTheyAre() {
        WorkspaceException alias = error("""
                commands:
                  a:
                    command: &c echo hi
                  b:
                    command: *c
                """);
        assertEquals("runboard.yaml:5:14: YAML aliases (*c) are not supported: write the value out where it is used",
                alias.getMessage());

        WorkspaceException merge = error("""
                commands:
                  a: &base
                    command: echo
                  b:
                    <<: *base
                    cwd: sub
                """);
        assertEquals(5, merge.line());
        assertEquals(5, merge.column());
        assertTrue(merge.problem().startsWith("YAML merge keys (<<) are not supported"), merge.problem());

        WorkspaceException tag = error("""
                commands:
                  a:
                    command: !!binary ZWNobyBoaQ==
                """);
        assertEquals(3, tag.line());
        assertTrue(tag.problem().startsWith("the YAML tag !!binary is not supported"), tag.problem());
    }

    @Test
    void aSecondDocumentIsRefusedNotDropped() {
        WorkspaceException e = error("""
                commands:
                  a:
                    command: echo one
                ---
                commands:
                  b:
                    command: echo two
                """);
        assertEquals(4, e.line());
        assertEquals(1, e.column());
        assertTrue(e.problem().startsWith("a second YAML document ('---') is not read"), e.problem());
    }

    @Test
    void oneDocumentWithMarkersAndPlainStandardTagsStillReads() throws Exception {
        WorkspaceFile f = WorkspaceYaml.parse("""
                ---
                commands:
                  a:
                    command: !!str 42
                    env:
                      "<<": quoted keys are plain keys
                ...
                """, Path.of("runboard.yaml"));
        assertEquals("42", f.commands().get("a").command());
        assertEquals("quoted keys are plain keys", f.commands().get("a").env().get("<<"));
    }

    @Test
    void durationsOutOfRangeAreReportedAtTheirValue() {
        WorkspaceException timeout = error("""
                commands:
                  web:
                    command: npm start
                    timeout: 99999999999999999999
                """);
        assertEquals(4, timeout.line());
        assertTrue(timeout.problem().contains("'99999999999999999999' is too long for a duration"), timeout.problem());

        WorkspaceException year = error("""
                commands:
                  web:
                    command: npm start
                    timeout: 9000h
                """);
        assertEquals(4, year.line());
        assertTrue(year.problem().contains("'timeout' must be at most 365 days, got 9000h"), year.problem());

        WorkspaceException grace = error("""
                commands:
                  web:
                    command: npm start
                    grace: 2h
                """);
        assertEquals(4, grace.line());
        assertTrue(grace.problem().contains("'grace' must be at most 1 hour, got 2h"), grace.problem());

        WorkspaceException nul = error("""
                commands:
                  web:
                    command: npm start
                    cwd: "sub\\0dir"
                """);
        assertTrue(nul.problem().contains("'cwd' contains a NUL character"), nul.problem());
    }

    /** The message a person sees for a file that does not read, from the file itself. */
    private String unreadable(String name, byte[] content) throws Exception {
        Path f = Files.write(dir.resolve(name), content);
        WorkspaceException e = assertThrows(WorkspaceException.class, () -> WorkspaceYaml.read(f));
        assertTrue(e.getMessage().lines().count() <= 2, e.getMessage());
        return e.getMessage();
    }

    private String unreadable(String name, String yaml) throws Exception {
        return unreadable(name, yaml.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void aFileThatDoesNotParseSaysWhatIsWrongWhereItIs() throws Exception {
        assertEquals("tabs.yaml:2:1: a tab where YAML allows only spaces: indent with spaces",
                unreadable("tabs.yaml", "commands:\n\tweb: {command: \"sleep 1\"}\n"));
        assertEquals("tabs.yaml:3:1: a tab where YAML allows only spaces: indent with spaces",
                unreadable("tabs.yaml", "commands:\n  web:\n\tcommand: sleep 1\n"));
        assertEquals("flow.yaml:2:1: expected ',' or '}', but got the end of the file (while parsing a flow mapping that starts at 1:11)",
                unreadable("flow.yaml", "commands: {web: {command: \"sleep 1\"}\n"));
        assertEquals("quote.yaml:4:1: found unexpected end of the file (while scanning a quoted scalar that starts at 3:14)",
                unreadable("quote.yaml", "commands:\n  web:\n    command: \"sleep 1\n"));
        assertEquals("indent.yaml:3:2: expected the end of the block, but found a key indented unlike the ones before it (while parsing a block mapping that starts at 1:1)",
                unreadable("indent.yaml", "commands:\n  web: {command: sleep 1}\n web2: x\n"));
    }

    @Test
    void aFileThatIsNotUtf8SaysSoWhereItStopsBeing() throws Exception {
        byte[] latin1 = "commands:\n  caf\u00e9: {command: \"sleep 1\"}\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
        assertEquals("latin1.yaml:2:6: not UTF-8 text (byte 0xE9): a workspace file must be saved as UTF-8",
                unreadable("latin1.yaml", latin1));
        byte[] binary = {0x7F, 'E', 'L', 'F', 2, 1, 1, 0, (byte) 0xC3, 0x28, 0};
        assertEquals("binary.yaml:1:9: not UTF-8 text (byte 0xC3): a workspace file must be saved as UTF-8",
                unreadable("binary.yaml", binary));
    }

    private static WorkspaceException error(String yaml) {
        return assertThrows(WorkspaceException.class, () -> WorkspaceYaml.parse(yaml, Path.of("runboard.yaml")));
    }

    @Test
    void durationsReadAndWriteInTheShortForm() {
        assertEquals(Duration.ofSeconds(90), dev.runboard.session.Durations.parse("90"));
        assertEquals(Duration.ofSeconds(90), dev.runboard.session.Durations.parse("1m30s"));
        assertEquals(Duration.ofSeconds(30), dev.runboard.session.Durations.parse("PT30S"));
        assertEquals("1h30m", dev.runboard.session.Durations.format(Duration.ofMinutes(90)));
        assertEquals("250ms", dev.runboard.session.Durations.format(Duration.ofMillis(250)));
        assertThrows(IllegalArgumentException.class, () -> dev.runboard.session.Durations.parse("5 parsecs"));
        assertThrows(IllegalArgumentException.class, () -> dev.runboard.session.Durations.parse("m5"));
    }

    /**
     * A long YAML value cost time quadratic in its length (4 MB: 93 s, a thread busy long after the
     * client gave up): a file over the limit is refused by its size, before any of it is parsed, and
     * the largest file allowed, one scalar long, reads in about a second.
     */
    @Test
    void aHugeScalarIsRefusedByItsSizeAndTheLargestAllowedFileReadsInBoundedTime() throws Exception {
        Path huge = dir.resolve("runboard.yaml");
        Files.writeString(huge, "commands:\n  a:\n    command: \"echo " + "x".repeat(20 << 20) + "\"\n");
        long started = System.nanoTime();
        WorkspaceException refused = assertThrows(WorkspaceException.class, () -> WorkspaceYaml.read(huge));
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(5).toNanos(), "refused without parsing it");
        assertTrue(refused.getMessage().contains("the file is 20 MiB; a workspace file may be at most 512 KiB"),
                refused.getMessage());

        String prefix = "commands:\n  a:\n    command: \"echo ";
        Path largest = dir.resolve("largest.yaml");
        Files.writeString(largest, prefix + "x".repeat(WorkspaceYaml.MAX_BYTES - prefix.length() - 2) + "\"\n");
        assertEquals(WorkspaceYaml.MAX_BYTES, Files.size(largest));
        started = System.nanoTime();
        WorkspaceFile read = WorkspaceYaml.read(largest);
        assertTrue(System.nanoTime() - started < Duration.ofSeconds(15).toNanos(), "bounded (about a second idle)");
        assertEquals(WorkspaceYaml.MAX_BYTES - prefix.length() - 2 + 5, read.commands().get("a").command().length());
    }
}
