package dev.runboard.ui.launch;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.OutputRule;
import dev.runboard.session.SessionSpec;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiTasks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import javafx.event.ActionEvent;
import javafx.fxml.FXMLLoader;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.scene.control.Dialog;
import javafx.scene.control.DialogPane;
import javafx.stage.Window;

/**
 * Opens the new-session dialog (non-modal to the event loop: {@code show()}, not
 * {@code showAndWait()}). Launch hands the spec to the window, which validates it at once and
 * starts it in the background: an {@link InvalidSpecException} keeps the dialog open with the
 * message beside its field, and nothing has started; a valid spec closes the dialog, and the row
 * appears once the session has started.
 */
public final class NewSessionDialogs {
    public static final ButtonType LAUNCH = new ButtonType("Launch", ButtonBar.ButtonData.OK_DONE);
    private final Theme theme;
    private final UiTasks tasks;
    private Path lastCwd;
    private final java.time.Duration defaultGrace;
    private final int previewBytes;
    private final List<OutputRule> defaultRules;
    private java.util.function.Supplier<Path> extraSshConfig = () -> null;

    public NewSessionDialogs(Theme theme, UiTasks tasks, Path initialCwd) {
        this(theme, tasks, initialCwd, dev.runboard.session.SessionSpec.DEFAULT_GRACE,
                dev.runboard.session.SessionSpec.DEFAULT_PREVIEW_BYTES);
    }

    /** Fresh forms start from these settings: the kill grace and the preview bound. */
    public NewSessionDialogs(Theme theme, UiTasks tasks, Path initialCwd, java.time.Duration defaultGrace, int previewBytes) {
        this(theme, tasks, initialCwd, defaultGrace, previewBytes, List.of());
    }

    /** ... and the app-wide default output rules (settings.json {@code default_rules}). */
    public NewSessionDialogs(Theme theme, UiTasks tasks, Path initialCwd, java.time.Duration defaultGrace, int previewBytes,
                             List<OutputRule> defaultRules) {
        this.defaultRules = List.copyOf(defaultRules);
        this.theme = theme;
        this.tasks = tasks;
        this.lastCwd = initialCwd;
        this.defaultGrace = defaultGrace;
        this.previewBytes = previewBytes;
    }

    /** The host field also offers the hosts of the data dir's {@code ssh_config} setting, read as each form opens. */
    public void offerSshHostsOfSettingsIn(Path dataDir) {
        this.extraSshConfig = () -> {
            String file = new dev.runboard.store.SettingsStore(dataDir).load().settings().sshConfig();
            return file == null ? null : Path.of(file);
        };
    }

    /**
     * @param prefill an earlier spec to edit, or null for a fresh form
     * @param launch validates the spec and starts it (in the background); throws {@link InvalidSpecException} to refuse it
     */
    public Dialog<SessionSpec> open(Window owner, SessionSpec prefill, Consumer<SessionSpec> launch) {
        NewSessionViewModel model = new NewSessionViewModel(lastCwd, defaultGrace, previewBytes, defaultRules);
        if (prefill != null) {
            model.prefill(prefill);
        }
        NewSessionController controller = new NewSessionController(model, tasks);
        controller.offerHostsOf(extraSshConfig);
        FXMLLoader loader = new FXMLLoader(NewSessionDialogs.class.getResource("/dev/runboard/ui/launch/NewSessionDialog.fxml"));
        loader.setController(controller);
        DialogPane pane;
        try {
            pane = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pane.getButtonTypes().setAll(LAUNCH, ButtonType.CANCEL);
        Dialog<SessionSpec> dialog = new Dialog<>();
        dialog.initOwner(owner);
        dialog.setTitle(prefill == null ? "New session" : "Edit & rerun");
        dialog.setHeaderText(null);
        dialog.setDialogPane(pane);
        dialog.setResizable(true);
        theme.register(pane.getScene());
        pane.lookupButton(LAUNCH).setId("launchButton");
        pane.lookupButton(ButtonType.CANCEL).setId("cancelButton");
        pane.lookupButton(LAUNCH).addEventFilter(ActionEvent.ACTION, e -> {
            boolean launched = model.launch(spec -> {
                launch.accept(spec);
                remember(spec.cwd());
            });
            if (!launched) {
                e.consume(); // stay open: the errors are shown beside their fields
            }
        });
        dialog.setResultConverter(b -> null);
        dialog.show();
        tasks.fx(controller::focusCommand);
        return dialog;
    }

    private void remember(Path cwd) {
        if (cwd != null && Files.isDirectory(cwd)) {
            lastCwd = cwd;
        }
    }
}
