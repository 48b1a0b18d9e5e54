package dev.runboard.ui;

import javafx.scene.Node;
import javafx.scene.Scene;

/** Runs an action once, at the first pulse that lays out a node in a window on screen (FX thread). */
final class FirstFrame {
    private FirstFrame() {
    }

    static void then(Scene scene, Node node, Runnable action) {
        Runnable[] listener = new Runnable[1];
        listener[0] = () -> {
            if (node.getScene() == scene && scene.getWindow() != null && scene.getWindow().isShowing() && node.isVisible()) {
                scene.removePostLayoutPulseListener(listener[0]);
                action.run();
            }
        };
        scene.addPostLayoutPulseListener(listener[0]);
    }
}
