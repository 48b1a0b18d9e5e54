package dev.runboard.ui.launch;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.SessionSpec;
import dev.runboard.ui.common.Theme;
import dev.runboard.ui.common.UiTasks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
import javafx.event.ActionEvent;
import javafx.fxml.FXMLLoader;
import javafx.scene.Node;
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
 * appears once the session has started. A session for another host keeps the dialog open until
 * the host answered: a host that cannot be reached, refuses the login or lacks perl is said in the
 * form, in the words the CLI uses, and the form is still filled in to correct and launch again.
 */
public final class NewSessionDialogs {
    public static final ButtonType LAUNCH = new ButtonType("Launch", ButtonBar.ButtonData.OK_DONE);
    private final Theme theme;
    private final UiTasks tasks;
    private Path lastCwd;
    private final Supplier<SessionDefaults> defaults;

    public NewSessionDialogs(Theme theme, UiTasks tasks, Path initialCwd) {
        this(theme, tasks, initialCwd, () -> SessionDefaults.ENGINE);
    }

    /**
     * Fresh forms start from {@code defaults}, asked each time a form opens, so settings changed
     * meanwhile (Preferences, {@code runboard config set}) apply to the next form.
     */
    public NewSessionDialogs(Theme theme, UiTasks tasks, Path initialCwd, Supplier<SessionDefaults> defaults) {
        this.theme = theme;
        this.tasks = tasks;
        this.lastCwd = initialCwd;
        this.defaults = defaults;
    }

    /**
     * @param prefill an earlier spec to edit, or null for a fresh form
     * @param launch validates the spec and starts it (in the background); throws {@link InvalidSpecException} to refuse it;
     *               the stage it returns completes on the FX thread once the session started, or with why it did not
     */
    public Dialog<SessionSpec> open(Window owner, SessionSpec prefill, Function<SessionSpec, ? extends CompletionStage<?>> launch) {
        SessionDefaults fresh = defaults.get(); // the settings read once per form
        NewSessionViewModel model = new NewSessionViewModel(lastCwd, fresh);
        if (prefill != null) {
            model.prefill(prefill);
        }
        NewSessionController controller = new NewSessionController(model, tasks);
        controller.offerHostsOf(fresh::sshConfig);
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
        Node launchButton = pane.lookupButton(LAUNCH);
        launchButton.addEventFilter(ActionEvent.ACTION, e -> {
            CompletionStage<?>[] started = new CompletionStage<?>[1];
            boolean launched = model.launch(spec -> {
                started[0] = launch.apply(spec);
                remember(spec.cwd());
            });
            if (!launched) {
                e.consume(); // stay open: the errors are shown beside their fields
            } else if (model.isRemote() && started[0] != null) {
                e.consume(); // stay open until the host answered
                waitForHost(dialog, model, launchButton, started[0]);
            }
        });
        dialog.setResultConverter(b -> null);
        dev.runboard.ui.common.ScreenFit.openWhole(dialog);
        dialog.show();
        tasks.fx(controller::focusCommand);
        return dialog;
    }

    /** Closes the dialog once the remote session started; a refusal is shown in the form, which stays as it was. */
    private static void waitForHost(Dialog<?> dialog, NewSessionViewModel model, Node launchButton, CompletionStage<?> started) {
        launchButton.setDisable(true);
        model.connecting(true);
        started.whenComplete((row, error) -> { // on the FX thread: the window's start completes there
            launchButton.setDisable(false);
            model.connecting(false);
            if (error == null) {
                dialog.close();
            } else {
                Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
                model.refused(cause.getMessage());
            }
        });
    }

    private void remember(Path cwd) {
        if (cwd != null && Files.isDirectory(cwd)) {
            lastCwd = cwd;
        }
    }
}
