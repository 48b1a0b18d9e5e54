package dev.runboard.ui.launch;

import dev.runboard.ui.common.UiTasks;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import javafx.collections.ListChangeListener;
import javafx.fxml.FXML;
import javafx.scene.control.Button;
import javafx.scene.control.CheckBox;
import javafx.scene.control.Label;
import javafx.scene.control.TextField;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Priority;
import javafx.scene.layout.VBox;
import javafx.stage.DirectoryChooser;

/** Binds the new-session form to {@link NewSessionViewModel}; builds the env rows, opens the folder chooser. */
public final class NewSessionController {
    private final NewSessionViewModel model;
    private final UiTasks tasks;

    @FXML private TextField commandField;
    @FXML private TextField shellField;
    @FXML private CheckBox noShellCheck;
    @FXML private TextField cwdField;
    @FXML private javafx.scene.control.ComboBox<String> hostField;
    @FXML private TextField timeoutField;
    @FXML private TextField maxOutputField;
    @FXML private Label maxOutputError;
    @FXML private TextField graceField;
    @FXML private javafx.scene.control.CheckBox ptyCheck;
    @FXML private javafx.scene.control.CheckBox backgroundCheck;
    @FXML private TextField failOnField;
    @FXML private TextField highlightField;
    @FXML private TextField notifyOnField;
    @FXML private TextField hangAfterField;
    @FXML private javafx.scene.control.CheckBox hangKillsCheck;
    @FXML private Label hangError;
    @FXML private VBox envRows;
    @FXML private Button addEnvButton;
    @FXML private Label envLimitHint;
    /** Each variable's row, made once: adding the 150th variable builds one row, not 150. */
    private final java.util.Map<EnvEntry, HBox> rowOf = new java.util.IdentityHashMap<>();
    @FXML private Label commandError;
    @FXML private Label shellError;
    @FXML private Label cwdError;
    @FXML private Label hostError;
    @FXML private Label hostStatus;
    @FXML private javafx.scene.control.CheckBox slurmCheck;
    @FXML private TextField sbatchField;
    @FXML private Label slurmError;
    @FXML private Label envError;
    @FXML private Label timeoutError;
    @FXML private Label graceError;
    @FXML private Label formError;

    /** The ssh_config setting's file, read off the FX thread when the form opens; null when none. */
    private java.util.function.Supplier<java.nio.file.Path> extraSshConfig = () -> null;

    /** Offers the hosts of this extra ssh config file too (asked in the background as the form opens). */
    void offerHostsOf(java.util.function.Supplier<java.nio.file.Path> extraSshConfig) {
        this.extraSshConfig = extraSshConfig;
    }

    public NewSessionController(NewSessionViewModel model, UiTasks tasks) {
        this.model = model;
        this.tasks = tasks;
    }

    @FXML
    private void initialize() {
        commandField.textProperty().bindBidirectional(model.commandProperty());
        shellField.textProperty().bindBidirectional(model.shellProperty());
        noShellCheck.selectedProperty().bindBidirectional(model.noShellProperty());
        shellField.disableProperty().bind(model.noShellProperty());
        cwdField.textProperty().bindBidirectional(model.cwdProperty());
        hostField.getEditor().textProperty().bindBidirectional(model.hostProperty());
        hostField.valueProperty().addListener((o, was, now) -> model.hostProperty().set(now == null ? "" : now));
        // The hosts of the user's ssh config, read off the FX thread.
        tasks.onFx(tasks.background(() -> SshConfigHosts.find(extraSshConfig.get())), (hosts, error) -> {
            if (hosts != null) {
                hostField.getItems().setAll(hosts);
            }
        });
        timeoutField.textProperty().bindBidirectional(model.timeoutProperty());
        maxOutputField.textProperty().bindBidirectional(model.maxOutputProperty());
        maxOutputField.setPromptText(model.maxOutputPrompt());
        graceField.textProperty().bindBidirectional(model.graceProperty());
        ptyCheck.selectedProperty().bindBidirectional(model.ptyProperty());
        backgroundCheck.selectedProperty().bindBidirectional(model.backgroundProperty());
        backgroundCheck.setText("Background (nice " + model.backgroundNice() + ")");
        failOnField.textProperty().bindBidirectional(model.failOnProperty());
        highlightField.textProperty().bindBidirectional(model.highlightProperty());
        notifyOnField.textProperty().bindBidirectional(model.notifyOnProperty());
        hangAfterField.textProperty().bindBidirectional(model.hangAfterProperty());
        hangKillsCheck.selectedProperty().bindBidirectional(model.hangKillsProperty());
        hangKillsCheck.disableProperty().bind(model.hangAfterProperty().isEmpty());
        bindError(commandError, "command");
        bindError(shellError, "shell");
        bindError(cwdError, "cwd");
        bindError(hostError, "host");
        slurmCheck.selectedProperty().bindBidirectional(model.slurmProperty());
        sbatchField.textProperty().bindBidirectional(model.sbatchProperty());
        sbatchField.disableProperty().bind(model.slurmProperty().not());
        bindError(slurmError, "slurm");
        hostStatus.textProperty().bind(model.hostStatusProperty());
        hostStatus.visibleProperty().bind(model.hostStatusProperty().isNotEmpty());
        hostStatus.managedProperty().bind(hostStatus.visibleProperty());
        hostStatus.visibleProperty().addListener(o -> fitWindow());
        bindError(envError, "env");
        bindError(timeoutError, "timeout");
        bindError(graceError, "grace");
        bindError(hangError, "hang");
        bindError(maxOutputError, "maxOutput");
        bindError(formError, "form");
        model.env().addListener((ListChangeListener<EnvEntry>) c -> rebuildEnvRows());
        rebuildEnvRows();
        javafx.beans.binding.BooleanBinding full = javafx.beans.binding.Bindings.size(model.env())
                .greaterThanOrEqualTo(NewSessionViewModel.MAX_ENV_ROWS);
        addEnvButton.disableProperty().bind(full);
        envLimitHint.visibleProperty().bind(full);
        envLimitHint.managedProperty().bind(full);
        envLimitHint.setText("At most " + NewSessionViewModel.MAX_ENV_ROWS + " variables here; for more, export them in a script.");
    }

    private void bindError(Label label, String field) {
        label.textProperty().bind(model.error(field));
        label.visibleProperty().bind(model.error(field).isNotEmpty());
        label.managedProperty().bind(label.visibleProperty());
        label.visibleProperty().addListener(o -> fitWindow());
    }

    /**
     * Errors and env rows change the form's height: the dialog grows with it, but never past the
     * screen it is on; beyond that the form scrolls and the buttons stay in view.
     */
    private void fitWindow() {
        tasks.fx(() -> {
            if (commandField.getScene() != null && commandField.getScene().getWindow() != null) {
                javafx.stage.Window w = commandField.getScene().getWindow();
                w.sizeToScene();
                dev.runboard.ui.common.ScreenFit.keepOnScreen(w);
            }
        });
    }

    private void rebuildEnvRows() {
        java.util.Set<EnvEntry> present = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        present.addAll(model.env());
        rowOf.keySet().retainAll(present);
        java.util.List<HBox> rows = new java.util.ArrayList<>();
        for (EnvEntry e : model.env()) {
            rows.add(rowOf.computeIfAbsent(e, this::envRow));
        }
        envRows.getChildren().setAll(rows);
        fitWindow();
    }

    private HBox envRow(EnvEntry e) {
        TextField key = new TextField();
        key.setPromptText("NAME");
        key.getStyleClass().addAll("env-key", "mono-field");
        key.textProperty().bindBidirectional(e.keyProperty());
        TextField value = new TextField();
        value.setPromptText("value");
        value.getStyleClass().addAll("env-value", "mono-field");
        value.textProperty().bindBidirectional(e.valueProperty());
        HBox.setHgrow(value, Priority.ALWAYS);
        Button remove = new Button("\u2715");
        remove.getStyleClass().addAll("flat", "small", "env-remove");
        remove.setOnAction(a -> model.env().remove(e));
        HBox row = new HBox(6, key, new Label("="), value, remove);
        row.getStyleClass().add("env-row");
        row.setAlignment(javafx.geometry.Pos.CENTER_LEFT);
        return row;
    }

    @FXML
    void onAddEnv() {
        model.addEnvRow();
    }

    @FXML
    void onBrowse() {
        DirectoryChooser chooser = new DirectoryChooser();
        chooser.setTitle("Working directory");
        String current = model.cwdProperty().get();
        if (current != null && !current.isBlank() && Files.isDirectory(Path.of(current))) {
            chooser.setInitialDirectory(new File(current));
        }
        File chosen = chooser.showDialog(cwdField.getScene().getWindow());
        if (chosen != null) {
            model.cwdProperty().set(chosen.getAbsolutePath());
        }
    }

    void focusCommand() {
        commandField.requestFocus();
    }
}
