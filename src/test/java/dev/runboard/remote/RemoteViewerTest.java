package dev.runboard.remote;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.artifact.MirroredBytes;
import dev.runboard.artifact.ViewerLine;
import dev.runboard.testing.Poll;
import dev.runboard.ui.RecordingDesktop;
import dev.runboard.ui.ansi.RuleHighlights;
import dev.runboard.ui.common.FxUiTasks;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.viewer.ArtifactViewer;
import dev.runboard.ui.viewer.Download;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javafx.scene.control.Label;
import javafx.scene.control.ListView;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;
import org.testfx.util.WaitForAsyncUtils;

/**
 * The viewer on a remote output of ~50 MB of which nothing is mirrored here yet (a running
 * session behind a slow link, say): its last page is fetched from the host by byte ranges, not the
 * whole file; Download brings all of it.
 */
@ExtendWith(ApplicationExtension.class)
class RemoteViewerTest {
    private static final String HOST = "rb-remote";
    private static final String ID = "20260101-000000-viewer";
    private static final long LINES = 7_000_000; // `seq 1 7000000`: 52 MB
    private static final long WAIT_S = 90;
    @RegisterExtension
    static final SshdExtension SSHD = new SshdExtension();

    @TempDir
    Path dataDir;
    private SshSessions remote;
    private Stage viewer;

    @Start
    void start(Stage stage) {
        javafx.application.Platform.setImplicitExit(false);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (viewer != null) {
            WaitForAsyncUtils.waitForAsyncFx(5_000, () -> viewer.hide());
        }
        if (remote != null) {
            remote.dropConnection(HOST);
            remote.close();
        }
        SSHD.get().forget(dataDir);
    }

    @Test
    void theLastPageOfARemoteOutputShowsWithoutFetchingTheWholeFile(FxRobot robot) throws Exception {
        remote = new SshSessions(dataDir, SSHD.get().config);
        HostLink link = remote.link(HOST);
        String out = link.dir() + "/s/" + ID + "/out";
        SshCommand.Result made = link.ssh().run("mkdir -p \"$(dirname " + SshCommand.quote(out) + ")\" && seq 1 " + LINES
                + " > " + SshCommand.quote(out) + " && wc -c < " + SshCommand.quote(out), null);
        assertEquals(0, made.exit(), made.err());
        long size = Long.parseLong(made.text().strip());
        Path mirror = Files.createFile(dataDir.resolve("capture.log")); // nothing of it here yet
        RemoteOutput source = (RemoteOutput) remote.output(HOST, ID);

        AtomicReference<Stage> opened = new AtomicReference<>();
        robot.interact(() -> opened.set(new ArtifactViewer(new Theme(false), new RecordingDesktop(), new FxUiTasks())
                .openRemote(null, mirror, source, () -> false, RuleHighlights.NONE)));
        viewer = opened.get();
        @SuppressWarnings("unchecked")
        ListView<ViewerLine> list = robot.lookup("#viewerList").queryAs(ListView.class);
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> !list.getItems().isEmpty()
                && list.getItems().get(0).text().equals("1")));
        robot.clickOn("#viewerEnd");
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () ->
                list.getItems().get(list.getItems().size() - 1).text().equals(Long.toString(LINES))));
        assertTrue(source.fetchedBytes() < size / 50, "the first and last pages came by range: " + source.fetchedBytes()
                + " of " + size + " bytes fetched");
        String info = fx(robot, () -> robot.lookup("#viewerInfo").queryAs(Label.class).getText());
        assertTrue(info.contains("on its host") && info.contains("mirrored here"), info);

        // Download: the whole output, byte for byte, from the host.
        Path saved = dataDir.resolve("saved.log");
        Download download = new Download(() -> new MirroredBytes(mirror, remote.output(HOST, ID)), saved);
        Thread t = new Thread(download, "test-download");
        t.start();
        assertEquals(size, download.get(WAIT_S, TimeUnit.SECONDS));
        Process seq = new ProcessBuilder("seq", "1", Long.toString(LINES)).start();
        assertTrue(java.util.Arrays.equals(seq.getInputStream().readAllBytes(), Files.readAllBytes(saved)),
                "the download holds the remote output exactly");
    }
}
