package dev.runboard.ui.workspace;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.runboard.engine.SupervisorFixture;
import dev.runboard.store.Json;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * One way to start a session: the sidebar (▶, Run group, Run all, reopening the workspace) and the
 * CLI ({@code up}, {@code up NAME}, {@code down}) send the supervisor the same request, so one
 * workspace with dependencies and a group limit gives the same sessions, statuses and reasons
 * whichever was used, and nothing that runs is started twice.
 */
@Tag("slow")
@ExtendWith(ApplicationExtension.class)
class OneStartPathTest {
    private static final long WAIT_S = 30;

    @TempDir
    Path dataDir;
    @TempDir
    Path project;

    private WindowFixture fixture;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.supervised(stage, dataDir);
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void theSidebarAndTheCliStartTheSameSessionsByTheSameRules(FxRobot robot) throws Exception {
        Path file = Files.writeString(project.resolve("runboard.yaml"), """
                name: shop
                groups:
                  suites: {parallel: 2}
                commands:
                  db:
                    command: exec sleep 60
                    shell: /bin/sh
                    autostart: true
                  broken:
                    command: exit 3
                    shell: /bin/sh
                  needs_broken:
                    command: touch ran-needs-broken
                    shell: /bin/sh
                    depends_on: {broken: succeeded}
                  migrate:
                    command: echo migrated
                    shell: /bin/sh
                    depends_on: {db: started}
                  s1: {command: exec sleep 60, shell: /bin/sh, group: suites}
                  s2: {command: exec sleep 60, shell: /bin/sh, group: suites}
                  s3: {command: exec sleep 60, shell: /bin/sh, group: suites}
                  s4: {command: exec sleep 60, shell: /bin/sh, group: suites}
                """);
        SupervisorFixture cli = fixture.supervisor();

        FxReads.await(robot, () -> window.workspaces().open(project)); // db autostarts
        awaitStatuses(cli, Map.of("db", List.of("running")));

        // ▶ on a command whose dependency fails: the dependency runs first, the command never does.
        robot.clickOn("#run-needs_broken");
        awaitStatuses(cli, Map.of("broken", List.of("failed"), "needs_broken", List.of("skipped")));
        JsonNode skipped = runsOf(cli, "needs_broken").get(0);
        assertTrue(skipped.path("reason").asText().startsWith("dependency broken will not succeed"),
                skipped.path("reason").asText());
        assertFalse(Files.exists(project.resolve("ran-needs-broken")), "▶ did not run it before its dependency");

        // Run group keeps the group's limit: two run, two wait in the queue.
        robot.clickOn("#runGroup-suites");
        awaitStatuses(cli, Map.of("s1", List.of("running"), "s2", List.of("running"), "s3", List.of("queued"),
                "s4", List.of("queued")));
        assertTrue(runsOf(cli, "s3").get(0).path("reason").asText().startsWith("queued in suites: 2 of 2 running"),
                runsOf(cli, "s3").get(0).toString());
        // The table's row says why it waits (in its Last line), not only Facts.
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> robot.lookup(".last-line-cell").queryAll()
                .stream().anyMatch(n -> n instanceof javafx.scene.control.Labeled l && l.getText() != null
                        && l.getText().startsWith("queued in suites: 2 of 2 running"))));

        // Reopening the workspace (autostart), Run all, `up` and `up migrate`: nothing that runs starts twice.
        FxReads.await(robot, () -> window.workspaces().open(project));
        robot.clickOn("#runAllButton");
        awaitStatuses(cli, Map.of("migrate", List.of("completed")));
        assertEquals(0, cli.cli("up", "-f", file.toString()).exit());
        assertEquals(0, cli.cli("up", "-f", file.toString(), "migrate", "s1").exit());
        for (String name : List.of("db", "s1", "s2", "s3", "s4", "migrate")) {
            assertEquals(1, runsOf(cli, name).size(), name + " started once: " + runsOf(cli, name));
        }

        // The window shows what the supervisor recorded, row for row.
        List<JsonNode> all = new ArrayList<>();
        Json.mapper().readTree(cli.cli("list", "--json").out()).forEach(all::add);
        for (JsonNode s : all) {
            String id = s.path("session_id").asText();
            String[] last = {"not asked yet"}; // what the window and the supervisor last said, for a failure's message
            try {
                Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> {
                    SessionRow row = fx(robot, () -> window.sessions().find(id));
                    JsonNode now = Json.mapper().readTree(cli.cli("show", id).out());
                    String shown = row == null ? "no row" : fx(robot, row::status).word();
                    last[0] = "the window: " + shown + ", the supervisor: " + now.path("status").asText();
                    return row != null && shown.equals(now.path("status").asText());
                });
            } catch (java.util.concurrent.TimeoutException e) {
                throw new AssertionError(s.path("stack_name").asText() + " (" + id + ") as the window shows it: " + last[0], e);
            }
        }

        // down from the CLI stops what the window started.
        SupervisorFixture.Result down = cli.cli("down", "-f", file.toString());
        assertEquals(0, down.exit(), down.err());
        for (String name : List.of("db", "s1", "s2", "s3", "s4")) {
            assertEquals("killed", runsOf(cli, name).get(0).path("status").asText(), name);
        }
    }

    /** Waits until each named command's runs have these statuses, oldest first. */
    private static void awaitStatuses(SupervisorFixture cli, Map<String, List<String>> wanted) throws Exception {
        Map<String, List<String>> seen = new HashMap<>();
        try {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> {
                for (var e : wanted.entrySet()) {
                    List<String> statuses = runsOf(cli, e.getKey()).stream().map(s -> s.path("status").asText()).toList();
                    seen.put(e.getKey(), statuses);
                    if (!statuses.equals(e.getValue())) {
                        return false;
                    }
                }
                return true;
            });
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("wanted " + wanted + ", saw " + seen, e);
        }
    }

    /** The runs of one command of the workspace, oldest first, as the CLI lists them. */
    private static List<JsonNode> runsOf(SupervisorFixture cli, String name) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode s : Json.mapper().readTree(cli.cli("list", "--json").out())) {
            if (name.equals(s.path("stack_name").asText(null))) {
                out.add(s);
            }
        }
        out.sort(java.util.Comparator.comparing(s -> s.path("session_id").asText()));
        return out;
    }
}
