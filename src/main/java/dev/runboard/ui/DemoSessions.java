package dev.runboard.ui;

import dev.runboard.process.SessionEngine;
import dev.runboard.process.Signal;
import dev.runboard.session.SessionSpec;
import dev.runboard.ui.main.MainViewModel;
import dev.runboard.ui.sessions.SessionRow;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javafx.animation.PauseTransition;

/**
 * Demo mode ({@code RUNBOARD_DEMO=1}), for screenshots and first looks: one session in each status,
 * with coloured output. Their working folders live in the data dir; the app kills them on exit.
 */
final class DemoSessions {
    private static final String TESTS = String.join("\n",
            "printf '\\033[1mRunning 24 tests\\033[0m  \\033[2m(junit-platform, 2 workers)\\033[0m\\n'",
            "for t in parser lexer resolver cache router auth session store codec retry; do",
            "  printf '  \\033[32m\u2714\\033[0m %-26s \\033[2m%3d ms\\033[0m\\n' \"${t}Test\" $((RANDOM % 90 + 3)); sleep 0.15; done",
            "printf '  \\033[33m\u26A0\\033[0m %-26s \\033[33mskipped: needs docker\\033[0m\\n' IntegrationTest",
            "printf '  \\033[31m\u2716\\033[0m %-26s \\033[31;1mexpected 200 but was 503\\033[0m\\n' HealthCheckTest",
            "printf '      at \\033[36mdev.example.HealthCheckTest.ready\\033[0m(HealthCheckTest.java:42)\\n'",
            "for t in metrics tracing config shutdown; do",
            "  printf '  \\033[32m\u2714\\033[0m %-26s \\033[2m%3d ms\\033[0m\\n' \"${t}Test\" $((RANDOM % 90 + 3)); sleep 0.15; done",
            "printf '\\033[1;35m\u25B6 watching for changes\u2026\\033[0m\\n'",
            "i=0; while true; do i=$((i+1)); printf '\\033[2m%s\\033[0m \\033[34mINFO\\033[0m rebuild #%d \\033[32mok\\033[0m in %d ms\\n' \"$(date +%T)\" $i $((RANDOM % 400 + 100)); sleep 2; done");

    /** The demo scripts use bash's $RANDOM; fall back to the user's shell where bash is missing. */
    private static final Path BASH = Files.isExecutable(Path.of("/bin/bash")) ? Path.of("/bin/bash") : SessionSpec.defaultShell();

    private DemoSessions() {
    }

    static void start(MainViewModel model) {
        SessionEngine engine = model.engine();
        Path projects = engine.config().sessionsDir().resolveSibling("demo");
        Path testScript = projects.resolve("webapp/run-tests.sh");
        Path webapp = folder(projects, "webapp");
        Path api = folder(projects, "api-server");
        Path data = folder(projects, "data-pipeline");

        model.start(spec(webapp, "printf '\\033[1;32m\u2714 build ok\\033[0m  bundle.js \\033[2m412 KB\\033[0m\\n'"));
        model.start(spec(api, "echo 'migrating schema v41 -> v42'; echo 'applying 0042_add_index.sql'; "
                + "printf '\\033[31merror:\\033[0m relation \"orders\" does not exist\\n'; exit 3"));
        model.start(SessionSpec.shell("echo 'waiting for the staging database'; sleep 30").cwd(api).shell(BASH)
                .timeout(Duration.ofSeconds(1)).grace(Duration.ofMillis(500)).build());
        model.start(spec(data, "seq -f 'row %g processed' 1 400000"));
        SessionRow doomed = model.start(spec(data, "echo 'crawling 1,200 pages'; sleep 600"));
        model.start(SessionSpec.shell("printf 'listening on \\033[4mhttp://localhost:8080\\033[0m\\n'; sleep 3600").cwd(api).shell(BASH)
                .env("PORT", "8080").build());
        write(testScript, TESTS + "\n");
        SessionRow tests = model.start(SessionSpec.shell("bash run-tests.sh --watch").cwd(webapp).shell(BASH).env("CI", "1")
                .timeout(Duration.ofHours(1)).build());

        PauseTransition later = new PauseTransition(javafx.util.Duration.millis(600));
        later.setOnFinished(e -> {
            if (doomed != null) {
                model.selectedProperty().set(doomed);
                model.kill(Signal.TERM);
            }
            model.selectedProperty().set(tests);
        });
        later.play();
    }

    private static SessionSpec spec(Path cwd, String command) {
        return SessionSpec.shell(command).cwd(cwd).shell(BASH).build();
    }

    private static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
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
