package dev.runboard.ui.detail;

import dev.runboard.ui.ansi.StyledLine;
import dev.runboard.ui.ansi.RuleHighlights;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Sizes;
import dev.runboard.ui.sessions.SessionRow;
import java.util.List;
import javafx.beans.InvalidationListener;
import javafx.beans.property.ObjectProperty;
import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleObjectProperty;

/**
 * The detail pane's state for the selected row: facts, notices and the parsed output. Follows the
 * row's snapshot (new each poll while it runs) and re-parses output only when it changed.
 */
public final class DetailViewModel {
    private final ObjectProperty<SessionRow> row = new SimpleObjectProperty<>(this, "row");
    private final ReadOnlyObjectWrapper<SessionSnapshot> snapshot = new ReadOnlyObjectWrapper<>(this, "snapshot");
    private final ReadOnlyObjectWrapper<SessionFacts> facts = new ReadOnlyObjectWrapper<>(this, "facts");
    private final ReadOnlyObjectWrapper<List<StyledLine>> lines = new ReadOnlyObjectWrapper<>(this, "lines", List.of());
    private final ReadOnlyObjectWrapper<RuleHighlights> highlights = new ReadOnlyObjectWrapper<>(this, "highlights", RuleHighlights.NONE);
    private final ReadOnlyBooleanWrapper truncated = new ReadOnlyBooleanWrapper(this, "truncated");
    private final ReadOnlyStringWrapper truncatedNotice = new ReadOnlyStringWrapper(this, "truncatedNotice", "");
    private final ReadOnlyStringWrapper artifact = new ReadOnlyStringWrapper(this, "artifact");
    private final ReadOnlyStringWrapper artifactError = new ReadOnlyStringWrapper(this, "artifactError");
    private final InvalidationListener snapshotChanged = o -> refresh();
    /** More than this since the drawn tail, within {@link #FLOOD_REDRAW_NANOS} of drawing it, is a flood. */
    static final long FLOOD_BYTES = 16 * 1024;
    static final long FLOOD_REDRAW_NANOS = 500_000_000L;
    private long parsedBytes = -1;
    private long shownAt; // System.nanoTime() of the last tail drawn
    private ParsedLines parsedLines = new ParsedLines();
    private SessionStatus parsedStatus;
    private PreviewReader previewReader = PreviewReader.DIRECT;
    /** The selected finished row's preview read back from disk (its row holds only a summary), and the summary it is of. */
    private OutputPreview readBack;
    private OutputPreview readBackOf;

    /**
     * Reads the preview of a finished row that does not hold it ({@link OutputPreview#summary}) and
     * hands it to {@code then} on the FX thread; the window's reader reads the store off the FX thread.
     */
    @FunctionalInterface
    public interface PreviewReader {
        /** Reads on the calling thread: for a view-model without a window (tests). */
        PreviewReader DIRECT = (summary, then) -> {
            try {
                then.accept(summary.held());
            } catch (java.io.IOException | RuntimeException e) {
                then.accept(unreadable(e));
            }
        };

        void read(OutputPreview summary, java.util.function.Consumer<OutputPreview> then);

        /** What the tail shows in place of output that could not be read back. */
        static OutputPreview unreadable(Throwable error) {
            return OutputPreview.noteOnly("could not read the output back: " + error.getMessage());
        }
    }

    /** Whether the person clicked the masked environment of the selected session to see its secret values. */
    private boolean envRevealed;

    /** Shows the selected session's secret environment values (a click on the masked ones) until another is selected. */
    public void revealEnv() {
        if (!envRevealed && row.get() != null) {
            envRevealed = true;
            refresh();
        }
    }

    public DetailViewModel() {
        row.addListener((o, was, now) -> {
            if (was != null) {
                was.snapshotProperty().removeListener(snapshotChanged);
            }
            parsedBytes = -1;
            envRevealed = false; // a click shows one session's secrets, not the next one's
            parsedLines = new ParsedLines();
            readBack = null;
            readBackOf = null;
            // compiled once per shown session, not per cell update
            highlights.set(now == null ? RuleHighlights.NONE : RuleHighlights.of(now.spec().watch()));
            if (now != null) {
                now.snapshotProperty().addListener(snapshotChanged);
            }
            refresh();
        });
    }

    private void refresh() {
        SessionRow r = row.get();
        SessionSnapshot s = r == null ? null : r.snapshot();
        snapshot.set(s);
        if (s == null) {
            facts.set(null);
            lines.set(List.of());
            truncated.set(false);
            artifact.set(null);
            artifactError.set(null);
            return;
        }
        facts.set(SessionFacts.of(envRevealed ? s.revealed(r.spec().env()) : s, r.elapsedProperty().get()));
        OutputPreview preview = s.preview();
        if (!preview.isHeld() && readBackOf != preview) {
            readBackOf = preview;
            readBack = null;
            OutputPreview wanted = preview;
            previewReader.read(preview, got -> {
                if (readBackOf == wanted) { // still the selected row's: show it
                    readBack = got;
                    refresh();
                }
            });
        }
        truncated.set(preview.truncated());
        // The sizes come from the row's output size, which ticks once a second like the table's:
        // a notice re-worded on every poll re-laid out the whole window each time.
        long total = Math.max(r.outputBytesProperty().get(), preview.visibleBytes());
        truncatedNotice.set(preview.truncated() ? truncatedNotice(total, total - preview.visibleBytes()) : "");
        artifact.set(s.artifact());
        artifactError.set(s.artifactError() == null ? null
                : s.artifactError() + (s.artifactErrorCode() == null ? "" : "  [" + s.artifactErrorCode() + "]"));
        // Output is re-parsed only when it grew or the session ended (the final preview may differ).
        boolean ended = s.status() != parsedStatus;
        if (!preview.isHeld()) {
            if (readBack == null) {
                lines.set(List.of()); // being read back: drawn as soon as it is here
                return;
            }
            preview = readBack;
        }
        if (preview.originalBytes() != parsedBytes || ended) {
            if (!ended && floodingSinceShown(preview.originalBytes())) {
                return; // a later poll shows it; the skipped tail is never lost, only not drawn
            }
            parsedBytes = preview.originalBytes();
            parsedStatus = s.status();
            shownAt = System.nanoTime();
            lines.set(OutputTailLines.parse(preview.text(), parsedLines));
        }
    }

    /**
     * While output pours in faster than anyone reads (more than a few pages since the shown tail),
     * the tail is redrawn at most every {@link #FLOOD_REDRAW_NANOS}: redrawing a whole page five
     * times a second is what a busy machine cannot spare, and nobody reads a page that scrolls
     * away that fast. Slow output still shows on the next poll.
     */
    private boolean floodingSinceShown(long bytes) {
        return parsedBytes >= 0 && bytes - parsedBytes > FLOOD_BYTES && System.nanoTime() - shownAt < FLOOD_REDRAW_NANOS;
    }


    /** Where a finished row's preview is read from when the row holds only its summary (the window: off the FX thread). */
    public void readPreviewsWith(PreviewReader reader) {
        this.previewReader = reader;
    }

    /** The plain text of the shown output, for the clipboard. */
    public String plainOutput() {
        StringBuilder sb = new StringBuilder();
        for (StyledLine l : lines.get()) {
            sb.append(l.plain()).append('\n');
        }
        return sb.toString();
    }

    public ObjectProperty<SessionRow> rowProperty() {
        return row;
    }

    public ReadOnlyObjectProperty<SessionSnapshot> snapshotProperty() {
        return snapshot.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<SessionFacts> factsProperty() {
        return facts.getReadOnlyProperty();
    }

    public ReadOnlyObjectProperty<List<StyledLine>> linesProperty() {
        return lines.getReadOnlyProperty();
    }

    /** The selected session's HIGHLIGHT rules, compiled. */
    public ReadOnlyObjectProperty<RuleHighlights> highlightsProperty() {
        return highlights.getReadOnlyProperty();
    }

    public ReadOnlyBooleanProperty truncatedProperty() {
        return truncated.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty truncatedNoticeProperty() {
        return truncatedNotice.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty artifactProperty() {
        return artifact.getReadOnlyProperty();
    }

    public ReadOnlyStringProperty artifactErrorProperty() {
        return artifactError.getReadOnlyProperty();
    }

    /**
     * The notice over a cut preview. The total ticks once a second, so for a moment it can equal the
     * preview's own bytes: then there is no count worth saying ("the 0 B in between").
     */
    static String truncatedNotice(long total, long between) {
        return between > 0
                ? Sizes.format(total) + " of output: this pane shows its start and end; the "
                  + Sizes.format(between) + " in between are in the full output"
                : Sizes.format(total) + " of output: this pane shows its start and end; the rest is in the full output";
    }
}
