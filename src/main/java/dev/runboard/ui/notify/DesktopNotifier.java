package dev.runboard.ui.notify;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/** A desktop notification through {@code notify-send} when it is on the PATH; runs on its own thread, never the FX one. */
public final class DesktopNotifier {
    private static final Logger LOG = Logger.getLogger(DesktopNotifier.class.getName());
    private final Optional<Path> notifySend;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "runboard-notify");
        t.setDaemon(true);
        return t;
    });

    private DesktopNotifier(Optional<Path> notifySend) {
        this.notifySend = notifySend;
    }

    public static DesktopNotifier fromPath(boolean enabled) {
        return new DesktopNotifier(enabled ? find("notify-send", System.getenv("PATH")) : Optional.empty());
    }

    static Optional<Path> find(String program, String path) {
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, program);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }

    public boolean available() {
        return notifySend.isPresent();
    }

    public void notify(String title, String body) {
        notifySend.ifPresent(program -> worker.execute(() -> {
            try {
                Process p = new ProcessBuilder(program.toString(), "--app-name=runboard", title, body)
                        .redirectErrorStream(true)
                        .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                        .start();
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly(); // a hung notification daemon must not pile up processes
                }
            } catch (Exception e) {
                LOG.log(Level.FINE, "notify-send failed", e);
            }
        }));
    }

    public void close() {
        worker.shutdownNow();
    }
}
