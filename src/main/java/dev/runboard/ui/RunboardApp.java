package dev.runboard.ui;

import javafx.application.Application;
import javafx.scene.Scene;
import javafx.scene.control.Label;
import javafx.stage.Stage;

/** The window. (Placeholder until the window issue lands.) */
public final class RunboardApp extends Application {

    public static void launchWindow(String[] args) {
        Application.launch(RunboardApp.class, args);
    }

    @Override
    public void start(Stage stage) {
        stage.setTitle("runboard");
        stage.setScene(new Scene(new Label("runboard"), 900, 600));
        stage.show();
    }
}
