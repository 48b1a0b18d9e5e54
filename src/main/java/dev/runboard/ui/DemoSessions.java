package dev.runboard.ui;

import dev.runboard.session.SessionSpec;
import dev.runboard.session.Signal;
import dev.runboard.ui.main.MainViewModel;
import dev.runboard.ui.sessions.SessionRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import javafx.animation.PauseTransition;

/**
 * Demo mode ({@code RUNBOARD_DEMO=1}), for screenshots and first looks: one session in each status,
 * with coloured output (backgrounds and reverse video too). {@code RUNBOARD_DEMO_SHOW=dialog} then
 * opens the New session dialog, for its screenshot; {@code RUNBOARD_DEMO_SHOW=slurm} adds two Slurm jobs
 * (one held, one running, selected) for the Slurm screenshot. Their folders and scripts live in the data dir; the app kills them on exit.
 */
final class DemoSessions {
    /** The demo scripts use bash's $RANDOM; fall back to the user's shell where bash is missing. */
    private static final Path BASH = Files.isExecutable(Path.of("/bin/bash")) ? Path.of("/bin/bash") : SessionSpec.defaultShell();

    private DemoSessions() {
    }

    static void start(MainViewModel model) {
        Path projects = model.engine().dataDir().resolve("demo");
        Path webapp = folder(projects, "webapp");
        Path api = folder(projects, "api-server");
        Path data = folder(projects, "data-pipeline");
        script(webapp, "build.sh", DemoScripts.BUILD);
        script(webapp, "run-tests.sh", DemoScripts.TESTS);
        script(api, "migrate.sh", DemoScripts.MIGRATE);
        script(api, "wait-for-db.sh", DemoScripts.WAIT_FOR_DB);
        script(api, "serve.sh", DemoScripts.SERVE);
        script(data, "crawl.sh", DemoScripts.CRAWL);

        model.start(spec(webapp, "./build.sh --production").build());
        model.start(spec(api, "./migrate.sh up").build());
        model.start(spec(api, "./wait-for-db.sh staging").timeout(Duration.ofSeconds(1)).grace(Duration.ofMillis(500)).build());
        model.start(spec(data, "seq -f 'row %g processed' 1 400000").build());
        CompletableFuture<SessionRow> doomed = model.start(spec(data, "./crawl.sh --pages 1200").build());
        model.start(spec(api, "./serve.sh").env("PORT", "8080").build());
        CompletableFuture<SessionRow> tests = model.start(spec(webapp, "./run-tests.sh --watch").env("CI", "1")
                .timeout(Duration.ofHours(1)).build());
        if ("slurm".equals(System.getenv("RUNBOARD_DEMO_SHOW"))) {
            // For the Slurm screenshot (docs/screenshots.sh starts a one-node cluster): one running, one Slurm holds
            // (selected, its Facts shown: job, partition, Slurm's reason).
            model.start(spec(data, "for e in $(seq 1 900); do echo \"epoch $e loss 0.$RANDOM\"; sleep 1; done")
                    .slurm(new dev.runboard.session.SlurmTarget(java.util.List.of("--partition=other"))).build());
            tests = model.start(spec(data, "python3 train.py --epochs 90").timeout(Duration.ofHours(6))
                    .slurm(new dev.runboard.session.SlurmTarget(java.util.List.of("--begin=now+2hours"))).build());
        }

        // The starts' futures complete on the FX thread, so this runs there.
        doomed.thenAcceptBoth(tests, (crawl, watch) -> {
            PauseTransition later = new PauseTransition(javafx.util.Duration.millis(600));
            later.setOnFinished(e -> {
                if (crawl != null) {
                    model.selectedProperty().set(crawl);
                    model.kill(Signal.TERM);
                }
                model.selectedProperty().set(watch);
                if ("dialog".equals(System.getenv("RUNBOARD_DEMO_SHOW"))) {
                    openNewSessionDialog();
                }
                if ("slurm".equals(System.getenv("RUNBOARD_DEMO_SHOW"))) {
                    showFacts();
                }
            });
            later.play();
        });
    }

    /** For the Slurm screenshot: the detail pane's Facts tab, as if clicked (the pane is loaded once a row is selected). */
    private static void showFacts() {
        PauseTransition loaded = new PauseTransition(javafx.util.Duration.millis(600));
        loaded.setOnFinished(e -> {
            for (javafx.stage.Window w : javafx.stage.Window.getWindows()) {
                if (w.getScene() != null && w.getScene().lookup("#sideTabs") instanceof javafx.scene.control.TabPane tabs) {
                    tabs.getTabs().stream().filter(t -> "factsTab".equals(t.getId())).findFirst()
                            .ifPresent(t -> tabs.getSelectionModel().select(t));
                }
            }
        });
        loaded.play();
    }

    /** For the dialog's screenshot (RUNBOARD_DEMO_SHOW=dialog): as if + New session were clicked. */
    private static void openNewSessionDialog() {
        for (javafx.stage.Window w : javafx.stage.Window.getWindows()) {
            if (w.getScene() != null && w.getScene().lookup("#newButton") instanceof javafx.scene.control.Button b) {
                b.fire();
                return;
            }
        }
    }

    private static SessionSpec.Builder spec(Path cwd, String command) {
        return SessionSpec.shell(command).cwd(cwd).shell(BASH).nice(SessionSpec.BACKGROUND_NICE);
    }

    private static void script(Path dir, String name, String body) {
        try {
            Path file = Files.writeString(dir.resolve(name), "#!" + BASH + "\n" + body + "\n");
            file.toFile().setExecutable(true, true);
        } catch (IOException e) {
            // the demo then shows a failing session instead: still a demo
        }
    }

    private static Path folder(Path parent, String name) {
        try {
            return Files.createDirectories(parent.resolve(name));
        } catch (IOException e) {
            return Path.of(System.getProperty("java.io.tmpdir"));
        }
    }
}
