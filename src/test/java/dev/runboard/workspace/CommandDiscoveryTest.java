package dev.runboard.workspace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each format from a small fixture in its documented syntax; discovery reads files and runs nothing. */
class CommandDiscoveryTest {
    @TempDir
    Path root;

    @Test
    void procfileEntries() throws Exception {
        // Heroku: "<process type>: <command>", one per line.
        write("Procfile", """
                web: bundle exec rails server -p $PORT
                worker:   bundle exec sidekiq -C config/sidekiq.yml
                # release: ./bin/migrate
                release_phase: ./bin/release
                """);
        assertEquals(Map.of(
                "web", "bundle exec rails server -p $PORT",
                "worker", "bundle exec sidekiq -C config/sidekiq.yml",
                "release_phase", "./bin/release"), commands("Procfile"));
    }

    @Test
    void packageJsonScriptsRunThroughThePackageManager() throws Exception {
        write("package.json", """
                {
                  "name": "shop",
                  "version": "1.0.0",
                  "scripts": {
                    "dev": "vite",
                    "build": "tsc && vite build",
                    "test:unit": "vitest run"
                  },
                  "devDependencies": { "vite": "^5.0.0" }
                }
                """);
        assertEquals(Map.of("dev", "npm run dev", "build", "npm run build", "test:unit", "npm run test:unit"), commands("package.json"));
        write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
        assertEquals("pnpm run dev", commands("package.json").get("dev"));
    }

    @Test
    void makefileRealTargetsOnly() throws Exception {
        write("Makefile", """
                # Build the thing
                CC := gcc
                CFLAGS ?= -O2
                PREFIX = /usr/local
                URL = http://example.com:8080/x
                OBJS = main.o util.o
                export PATH := $(PWD)/bin:$(PATH)

                .PHONY: all clean test docs.html
                .DEFAULT_GOAL := all

                all: app
                app: $(OBJS)
                \t$(CC) -o $@ $^

                %.o: %.c
                \t$(CC) $(CFLAGS) -c $<

                main.o: main.c util.h
                build/app: app
                docs.html:
                \tpandoc README.md -o $@

                test: all
                \t./run-tests.sh
                clean::
                \trm -f app *.o
                lint fmt: ; @echo $@
                $(OBJS): util.h
                debug: CFLAGS = -g
                ifeq ($(OS),Windows_NT)
                windows-only:
                endif
                define HELP
                notatarget: really
                endef
                install: \\
                  app
                \tinstall app $(PREFIX)/bin
                """);
        assertEquals(List.of("all", "app", "docs.html", "test", "clean", "lint", "fmt", "debug", "windows-only", "install"),
                names("Makefile"));
        assertEquals("make test", commands("Makefile").get("test"));
    }

    @Test
    void mprocsProcs() throws Exception {
        // mprocs.yaml: procs with shell or cmd, cwd (may start with <CONFIG_DIR>), env, autostart.
        write("mprocs.yaml", """
                procs:
                  server:
                    shell: "cargo run --bin server"
                    cwd: "<CONFIG_DIR>/backend"
                    env:
                      RUST_LOG: debug
                      HOME: null
                  webpack:
                    cmd: ["npx", "webpack", "serve"]
                    autostart: false
                """);
        List<DiscoveredCommand> found = CommandDiscovery.scan(root).commands();
        DiscoveredCommand server = byName(found, "server");
        assertEquals("cargo run --bin server", server.command().command());
        assertEquals("backend", server.command().cwd());
        assertEquals(Map.of("RUST_LOG", "debug"), server.command().env());
        DiscoveredCommand webpack = byName(found, "webpack");
        assertEquals(List.of("npx", "webpack", "serve"), webpack.command().argv());
        assertEquals(Boolean.FALSE, webpack.command().autostart());
        assertEquals("mprocs.yaml", webpack.source());
    }

    @Test
    void processComposeProcesses() throws Exception {
        write("process-compose.yaml", """
                version: "0.5"
                environment:
                  - "GLOBAL=1"
                processes:
                  db:
                    command: "postgres -D ./data"
                    working_dir: "./infra"
                    environment:
                      - "PGPORT=5433"
                      - "PGDATA=./data"
                    availability:
                      restart: "on_failure"
                  api:
                    command: ./gradlew bootRun
                    depends_on:
                      db:
                        condition: process_healthy
                """);
        List<DiscoveredCommand> found = CommandDiscovery.scan(root).commands();
        DiscoveredCommand db = byName(found, "db");
        assertEquals("postgres -D ./data", db.command().command());
        assertEquals("infra", db.command().cwd());
        assertEquals(Map.of("PGPORT", "5433", "PGDATA", "./data"), db.command().env());
        assertEquals("./gradlew bootRun", byName(found, "api").command().command());
    }

    @Test
    void anchorsAndMergeKeysInOtherToolsFilesMeanWhatTheySay() throws Exception {
        // Jackson's YAML reader gives an alias as the anchor's name: "command: *serve" would have offered to run "serve".
        write("process-compose.yaml", """
                x-env: &env
                  environment:
                    - "PORT=8080"
                processes:
                  web:
                    command: &serve ./serve --port 8080
                    <<: *env
                  web-again:
                    command: *serve
                """);
        CommandDiscovery.Result result = CommandDiscovery.scan(root);
        assertEquals(List.of(), result.problems());
        assertEquals("./serve --port 8080", byName(result.commands(), "web-again").command().command());
        assertEquals(Map.of("PORT", "8080"), byName(result.commands(), "web").command().env());
    }

    @Test
    void wrappersOfferTheirUsualCommand() throws Exception {
        write("mvnw", "#!/bin/sh\necho never run\n");
        write("gradlew", "#!/bin/sh\necho never run\n");
        assertEquals(Map.of("test", "./mvnw test"), commands("mvnw"));
        assertEquals(Map.of("build", "./gradlew build"), commands("gradlew"));
    }

    @Test
    void aBrokenSourceIsReportedAndTheOthersStillCount() throws Exception {
        write("package.json", "{ \"scripts\": { \"dev\": ");
        write("Procfile", "web: ./serve\n");
        CommandDiscovery.Result result = CommandDiscovery.scan(root);
        assertEquals(1, result.commands().size());
        assertEquals(1, result.problems().size());
        assertTrue(result.problems().get(0).startsWith("package.json: "), result.problems().get(0));
    }

    private Map<String, String> commands(String source) {
        return CommandDiscovery.scan(root).commands().stream().filter(d -> d.source().equals(source))
                .collect(Collectors.toMap(DiscoveredCommand::name, d -> d.command().displayCommand()));
    }

    private List<String> names(String source) {
        return CommandDiscovery.scan(root).commands().stream().filter(d -> d.source().equals(source))
                .map(DiscoveredCommand::name).toList();
    }

    private static DiscoveredCommand byName(List<DiscoveredCommand> found, String name) {
        return found.stream().filter(d -> d.name().equals(name)).findFirst().orElseThrow();
    }

    private void write(String name, String text) throws Exception {
        Files.writeString(root.resolve(name), text);
    }
}
