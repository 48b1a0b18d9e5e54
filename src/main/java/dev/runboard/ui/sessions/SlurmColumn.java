package dev.runboard.ui.sessions;

import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SlurmJob;
import javafx.collections.ListChangeListener;
import javafx.collections.ObservableList;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableView;

/**
 * The sessions table's Slurm column: a Slurm session's job id and node ("4711 · gpu-03"), or
 * "4711 · pending" while Slurm holds it. It joins the table with the first Slurm session listed, so
 * a window without any keeps its width for the columns it uses.
 */
public final class SlurmColumn extends TableColumn<SessionRow, SessionSnapshot> {

    private SlurmColumn() {
        super("Slurm");
        setId("slurmColumn");
        setPrefWidth(110);
        setMinWidth(70);
        setCellValueFactory(c -> c.getValue().snapshotProperty());
        setCellFactory(c -> new Cell());
        setComparator(java.util.Comparator.comparing(SlurmColumn::text));
    }

    /** Adds the column after Status once {@code rows} holds a Slurm session (FX thread, as the rows change). */
    public static void installWhenNeeded(TableView<SessionRow> table, ObservableList<SessionRow> rows) {
        Runnable check = () -> {
            boolean shown = table.getColumns().stream().anyMatch(c -> c instanceof SlurmColumn);
            if (!shown && rows.stream().anyMatch(r -> r.spec().isSlurm())) {
                table.getColumns().add(Math.min(1, table.getColumns().size()), new SlurmColumn());
            }
        };
        rows.addListener((ListChangeListener<SessionRow>) change -> check.run());
        check.run();
    }

    /** The cell's words; empty for a session that is not a Slurm job. */
    static String text(SessionSnapshot s) {
        SlurmJob job = s == null ? null : s.slurm();
        if (job == null) {
            return "";
        }
        if (job.isPending()) {
            return job.jobId() + " · pending";
        }
        return job.node() == null ? job.jobId() : job.jobId() + " · " + job.node();
    }

    private static final class Cell extends TableCell<SessionRow, SessionSnapshot> {
        private final dev.runboard.ui.common.HoverTooltip tip = new dev.runboard.ui.common.HoverTooltip(this);

        Cell() {
            getStyleClass().add("slurm-cell");
        }

        @Override
        protected void updateItem(SessionSnapshot s, boolean empty) {
            super.updateItem(s, empty);
            String text = empty ? "" : text(s);
            setText(text.isEmpty() ? null : text);
            if (!empty && s != null && s.slurm() != null) {
                SlurmJob job = s.slurm();
                tip.setText("Slurm job " + job.jobId() + (job.partition() == null ? "" : ", partition " + job.partition())
                        + (job.state() == null ? "" : ": " + job.state()) + (job.reason() == null ? "" : " (" + job.reason() + ")"));
            } else {
                tip.setText(null);
            }
        }
    }
}
