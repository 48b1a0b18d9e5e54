package dev.runboard.ui.common;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import javafx.fxml.FXMLLoader;
import javafx.scene.Parent;
import javafx.util.Callback;

/**
 * An FXML view the window does not need for its first frame, loaded the first time something asks
 * for it (FX thread). Parsing a view, styling its controls and making their skins cost the FX thread
 * a tenth of a second or more each, before the first frame if the main view included them; what
 * the window does with a view once it exists is registered with {@link #whenLoaded}, so it happens
 * whichever caller loads it first.
 *
 * @param <C> the view's controller
 */
public final class LateView<C> {
    private final URL fxml;
    private final Callback<Class<?>, Object> controllers;
    private final List<BiConsumer<Parent, C>> onLoad = new ArrayList<>();
    private Parent root;
    private C controller;
    private boolean loading;

    /** A view from {@code fxml}, its controller made by {@code controllers} (as FXMLLoader's controller factory). */
    public LateView(URL fxml, Callback<Class<?>, Object> controllers) {
        if (fxml == null) {
            throw new IllegalArgumentException("no such FXML resource");
        }
        this.fxml = fxml;
        this.controllers = controllers;
    }

    public boolean isLoaded() {
        return root != null;
    }

    /** The view's root, loading it if nobody did yet. */
    public Parent root() {
        load();
        return root;
    }

    /** The view's controller, loading the view if nobody did yet. */
    public C controller() {
        load();
        return controller;
    }

    /** Runs {@code action} once the view exists: now if it does, else right after it is loaded. */
    public void whenLoaded(BiConsumer<Parent, C> action) {
        if (isLoaded()) {
            action.accept(root, controller);
        } else {
            onLoad.add(action);
        }
    }

    /** Loads the view now if nobody did yet (and runs what waited for it, in the order it was registered). */
    public void load() {
        if (root != null || loading) {
            return;
        }
        loading = true;
        FXMLLoader loader = new FXMLLoader(fxml);
        loader.setControllerFactory(controllers);
        try {
            root = loader.load();
        } catch (IOException e) {
            throw new UncheckedIOException("could not load " + fxml, e);
        } finally {
            loading = false;
        }
        controller = loader.getController();
        List<BiConsumer<Parent, C>> waiting = List.copyOf(onLoad);
        onLoad.clear();
        waiting.forEach(action -> action.accept(root, controller));
    }
}
