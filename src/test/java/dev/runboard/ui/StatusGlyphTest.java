package dev.runboard.ui;

import static dev.runboard.ui.FxReads.fx;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.sun.javafx.font.CharToGlyphMapper;
import com.sun.javafx.font.CompositeFontResource;
import com.sun.javafx.font.FontResource;
import com.sun.javafx.font.PGFont;
import com.sun.javafx.scene.text.FontHelper;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.testing.Poll;
import dev.runboard.ui.common.StatusLook;
import dev.runboard.ui.sessions.SessionRow;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javafx.scene.control.Label;
import javafx.scene.control.TableCell;
import javafx.scene.text.Font;
import javafx.stage.Stage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.testfx.api.FxRobot;
import org.testfx.framework.junit5.ApplicationExtension;
import org.testfx.framework.junit5.Start;

/**
 * Every status glyph is drawn by the font the Status cell's glyph resolves to, not by a fallback or
 * as a missing-glyph box (the pending hourglass U+29D7 was a box with DejaVu Sans). The font is the
 * one JavaFX really picked for the label, asked through its font resource: the primary font of a
 * logical font such as System, since a box is what a person sees when that one lacks the glyph.
 */
@ExtendWith(ApplicationExtension.class)
class StatusGlyphTest {
    private static final long WAIT_S = 30;

    @TempDir
    Path dataDir;

    private WindowFixture fixture;
    private MainWindow window;

    @Start
    void start(Stage stage) {
        fixture = WindowFixture.open(stage, dataDir);
        window = fixture.window();
    }

    @AfterEach
    void stop() throws Exception {
        fixture.close();
    }

    @Test
    void everyStatusGlyphIsInTheFontTheStatusCellDrawsWith(FxRobot robot) throws Exception {
        SessionRow row = FxReads.await(robot, () -> window.model().launch(SessionSpec.shell("true").cwd(dataDir).build()));
        Poll.waitFor(WAIT_S, TimeUnit.SECONDS, () -> fx(robot, () -> statusCell(robot, row) != null
                && "completed".equals(statusCell(robot, row).getText())));
        Label glyph = fx(robot, () -> (Label) statusCell(robot, row).getGraphic());
        assertEquals(StatusLook.glyph(SessionStatus.COMPLETED), fx(robot, glyph::getText), "the row shows the glyph");

        Font font = fx(robot, glyph::getFont);
        List<String> missing = new ArrayList<>();
        String drawnBy = fx(robot, () -> primary(font).getFullName() + " (" + primary(font).getFileName() + ")");
        for (SessionStatus s : SessionStatus.values()) {
            String text = StatusLook.glyph(s);
            String lacking = fx(robot, () -> lacking(font, text));
            if (!lacking.isEmpty()) {
                missing.add(s.word() + ": " + lacking);
            }
        }
        assertEquals(List.of(), missing, "glyphs " + drawnBy + " lacks");
    }

    /** The font that draws a label's text first: the first slot of a logical (composite) font. */
    private static FontResource primary(Font font) {
        FontResource resource = ((PGFont) FontHelper.getNativeFont(font)).getFontResource();
        return resource instanceof CompositeFontResource composite ? composite.getSlotResource(0) : resource;
    }

    /** The code points of {@code text} the label's font has no glyph for, as U+XXXX. */
    private static String lacking(Font font, String text) {
        CharToGlyphMapper mapper = primary(font).getGlyphMapper();
        return text.codePoints().filter(cp -> mapper.charToGlyph(cp) == mapper.getMissingGlyphCode())
                .mapToObj(cp -> String.format("U+%04X", cp)).collect(Collectors.joining(" "));
    }

    /** The Status cell of {@code row}'s line in the table, or null; FX thread. */
    private static TableCell<?, ?> statusCell(FxRobot robot, SessionRow row) {
        return robot.lookup(".session-table .status-cell").queryAll().stream()
                .map(n -> (TableCell<?, ?>) n)
                .filter(c -> c.getTableRow() != null && c.getTableRow().getItem() == row)
                .findFirst().orElse(null);
    }
}
