package dev.runboard.ui.workspace;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.OsProcesses;
import dev.runboard.process.ProcInfo;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.FxReads;
import dev.runboard.ui.MainWindow;
import dev.runboard.ui.WindowFixture;
import dev.runboard.ui.sessions.SessionRow;
import dev.runboard.workspace.WorkspaceYaml;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javafx.scene.control.Button;
import javafx.scene.control.Label;
import javafx.scene.control.TableView;
import javafx.scene.control.TextField;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/** The sidebar on the real window (headless Monocle) with real files and real processes. */
@ExtendWith(ApplicationExtension.class)
class WorkspaceSidebarTest {
    private static final long WAIT_S = 20;

    @TempDir
    Path dataDir;
    @TempDir
    Path project;

    private WindowFixture fixture;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.supervised(stage, dataDir); // as the app runs: the sidebar's starts are the supervisor's up
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void runAGroupTagsItsSessionsAndStopAllLeavesNoSurvivors(FxRobot robot) throws Exception {
        Files.writeString(project.resolve("runboard.yaml"), """
                name: shop
                commands:
                  web:
                    command: sleep 60 & sleep 60; wait
                    group: dev
                    autostart: true
                  worker:
                    command: sh -c 'sleep 60 & wait' & wait
                    group: dev
                    grace: 500ms
                  lint:
                    command: echo lint
                """);
        FxReads.await(robot, () -> window.workspaces().open(project));
        assertEquals("shop", fx(robot, () -> robot.lookup("#workspaceName").queryAs(Label.class).getText()));
        // web autostarts (in the background: the row comes once it has started)
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().size()) == 1);

        // Run group is `up dev`: web runs already and is not started twice; worker starts.
        robot.clickOn("#runGroup-dev");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> window.sessions().rows().size()) == 2);
        List<SessionRow> rows = fx(robot, () -> window.sessions().rows().stream()
                .sorted(java.util.Comparator.comparing(SessionRow::id)).toList());
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> rows.stream()
                .allMatch(r -> window.workspaces().linkOf(r) != null)));
        // Sorted by tag, not by id: two sessions started within one second have ids in random order.
        assertEquals(List.of("shop \u203A web", "shop \u203A worker"),
                fx(robot, () -> rows.stream().map(r -> window.workspaces().linkOf(r).tag()).sorted().toList()));
        assertTrue(tableShows(robot, "shop \u203A worker"), "the table's workspace column tags the session");
        // (A run's first record may say "pending, starting": every start is made, then launched.)
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> commandEntry("worker").lastStatusProperty().get()) == SessionStatus.RUNNING);

        // Rerun from the table keeps the link to the workspace command. The worker's row by its tag: ids of one
        // second sort in random order, so the second by id was web's once in a while.
        SessionRow workerRow = fx(robot, () -> rows.stream()
                .filter(r -> window.workspaces().linkOf(r).tag().equals("shop \u203A worker")).findFirst().orElseThrow());
        SessionRow rerun = FxReads.await(robot, () -> {
            window.model().selectedProperty().set(workerRow);
            return window.model().rerun();
        });
        assertEquals("shop \u203A worker", fx(robot, () -> window.workspaces().linkOf(rerun).tag()));

        List<Session> sessions = fx(robot, () -> window.workspaces().runsOfOpenWorkspace().stream()
                .map(r -> ((dev.runboard.process.SupervisedSessions) fixture.service()).find(r.id()).orElseThrow()).toList());
        assertEquals(3, sessions.size());
        for (Session s : sessions) {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> tagged(s).size() >= 3);
        }

        robot.clickOn("#stopAllButton");
        for (Session s : sessions) {
            Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> s.status() == SessionStatus.KILLED);
            assertTrue(tagged(s).isEmpty(), "no process carries " + s.tag() + " any more");
        }
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> window.model().messageProperty().get()).equals("Stopped 3 of shop: 0 survivors"));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS,
                () -> fx(robot, () -> commandEntry("worker").lastStatusProperty().get()) == SessionStatus.KILLED);
        assertTrue(Files.readString(dataDir.resolve("recent-workspaces.json")).contains(project.toString()));
    }

    @Test
    void theSidebarFollowsTheFileAndABrokenEditKeepsTheLastGoodList(FxRobot robot) throws Exception {
        Path file = project.resolve("runboard.yaml");
        Files.writeString(file, "commands:\n  web:\n    command: ./serve\n");
        FxReads.await(robot, () -> window.workspaces().open(project));
        assertEquals(List.of("web"), entryNames(robot));

        Files.writeString(file, "commands:\n  web:\n    command: ./serve\n  test:\n    command: ./test\n    group: checks\n");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> entryNames(robot).equals(List.of("web", "checks", "test")));

        Files.writeString(file, "commands:\n  web:\n    command: ./serve\n    colour: red\n");
        Label error = robot.lookup("#workspaceError").queryAs(Label.class);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, error::isVisible));
        String text = fx(robot, error::getText);
        assertTrue(text.startsWith("runboard.yaml:4:5: unknown key 'colour'"), text);
        assertEquals(List.of("web", "checks", "test"), entryNames(robot), "the last good list stays");
        assertTrue(robot.lookup("#run-test").tryQuery().isPresent(), "and can still be run");

        Files.writeString(file, "commands:\n  web:\n    command: ./serve --fast\n");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> !fx(robot, error::isVisible));
        assertEquals(List.of("web"), entryNames(robot));
    }

    @Test
    void discoveredCommandsImportInOneClickAndASessionSavesToTheWorkspace(FxRobot robot) throws Exception {
        Files.writeString(project.resolve("Procfile"), "web: python3 -m http.server $PORT\nworker: ./work\n");
        Files.writeString(project.resolve("mvnw"), "#!/bin/sh\n");
        FxReads.await(robot, () -> window.workspaces().open(project));
        assertEquals(3, fx(robot, () -> window.workspaces().discovered().size()));
        assertFalse(Files.exists(project.resolve("runboard.yaml")), "opening writes nothing");

        robot.clickOn("#import-web");
        WaitForAsyncUtils.waitForFxEvents();
        assertEquals("python3 -m http.server $PORT",
                WorkspaceYaml.read(project.resolve("runboard.yaml")).commands().get("web").command());
        assertEquals(List.of("Procfile", "web"), entryNames(robot));
        assertEquals(List.of("worker", "test"), fx(robot, () -> window.workspaces().discovered().stream().map(d -> d.name()).toList()));

        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell("echo saved").cwd(project.resolve("."))
                .env("MODE", "demo").build()));
        robot.interact(() -> window.controller().table().getSelectionModel().select(row));
        robot.interact(() -> workspaceController().saveSelectedSession());
        robot.interact(() -> robot.lookup("#saveToWorkspaceName").queryAs(TextField.class).setText("greet"));
        robot.clickOn("#saveToWorkspaceButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> WorkspaceYaml.read(project.resolve("runboard.yaml")).commands().containsKey("greet"));
        var greet = WorkspaceYaml.read(project.resolve("runboard.yaml")).commands().get("greet");
        assertEquals("echo saved", greet.command());
        assertEquals(null, greet.cwd(), "the workspace folder itself is the default cwd");
        assertEquals("demo", greet.env().get("MODE"));
        assertNotNull(fx(robot, () -> window.workspaces().linkOf(row)));
    }

    @Test
    void stopAllIsEnabledOnlyWhileACommandOfTheWorkspaceRuns(FxRobot robot) throws Exception {
        Files.writeString(project.resolve("runboard.yaml"), "commands:\n  web:\n    command: sleep 60\n");
        FxReads.await(robot, () -> window.workspaces().open(project));
        Button stopAll = robot.lookup("#stopAllButton").queryAs(Button.class);
        assertTrue(fx(robot, stopAll::isDisabled), "nothing runs: nothing to stop");
        robot.clickOn("#runAllButton");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> !fx(robot, stopAll::isDisabled));
        FxReads.clickOn(robot, stopAll);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, stopAll::isDisabled));
    }

    private WorkspaceController workspaceController() {
        return window.controller().workspaceController();
    }

    private CommandEntry commandEntry(String name) {
        return window.workspaces().entries().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    private List<String> entryNames(FxRobot robot) {
        return fx(robot, () -> window.workspaces().entries().stream().map(CommandEntry::name).toList());
    }

    /** Live processes whose environment carries the session's tag: one pass over /proc. */
    private static List<ProcInfo> tagged(Session s) {
        OsProcesses os = OsProcesses.forThisMachine();
        return os.snapshot().all().stream().filter(p -> p.alive() && os.hasEnvEntry(p.pid(), s.tag())).toList();
    }

    @Test
    void theWorkspaceColumnShowsOnceARowCameFromAWorkspaceCommand(FxRobot robot) throws Exception {
        Files.writeString(project.resolve("runboard.yaml"), """
                name: shop
                commands:
                  lint:
                    command: echo lint
                """);
        FxReads.await(robot, () -> window.workspaces().open(project));
        javafx.scene.control.TableColumn<?, ?> column = fx(robot, () -> workspaceColumn(robot.lookup(".session-table").queryAs(TableView.class)));
        assertEquals(false, fx(robot, column::isVisible), "no row from the workspace yet: the command gets the room");

        robot.clickOn("#run-lint");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, column::isVisible));
        assertTrue(tableShows(robot, "shop \u203A lint"), "the column tags the run");
    }

    private static javafx.scene.control.TableColumn<?, ?> workspaceColumn(TableView<?> table) {
        for (javafx.scene.control.TableColumn<?, ?> c : table.getColumns()) {
            if ("workspaceColumn".equals(c.getId())) {
                return c;
            }
        }
        throw new AssertionError("the table has no Workspace column");
    }

    private static boolean tableShows(FxRobot robot, String text) {
        return fx(robot, () -> robot.lookup(".session-table").queryAs(TableView.class) != null
                && robot.lookup(".session-table .table-cell").queryAll().stream()
                        .map(n -> ((javafx.scene.control.Labeled) n).getText())
                        .anyMatch(text::equals));
    }
}
