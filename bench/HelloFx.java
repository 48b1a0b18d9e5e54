import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import javafx.application.Application;
import javafx.application.Platform;
import javafx.scene.Scene;
import javafx.scene.layout.StackPane;
import javafx.stage.Stage;

/**
 * The baseline of bench/window-start.sh: an empty JavaFX window, timed as the app is (its report
 * written the same way: milliseconds since the process started, at the first pulse after the
 * stage is shown). A plain main class, as the app's Launcher, so JavaFX may sit on the class path.
 * Run: java -cp "HELLO_CLASSES:target/lib/*" HelloFx (RUNBOARD_STARTUP_REPORT=FILE).
 */
public class HelloFx {
    public static void main(String[] args) {
        Application.launch(Window.class, args);
    }

    public static class Window extends Application {
        @Override
        public void start(Stage stage) {
            Scene scene = new Scene(new StackPane(), 1280, 800);
            Runnable[] first = new Runnable[1];
            first[0] = () -> {
                if (stage.isShowing()) {
                    scene.removePostLayoutPulseListener(first[0]);
                    report("first_frame_ms " + sinceStart() + "\nhistory_ms " + sinceStart() + "\ndone 1");
                }
            };
            scene.addPostLayoutPulseListener(first[0]);
            stage.setScene(scene);
            stage.setTitle("hello");
            stage.show();
            Platform.requestNextPulse();
        }
    }

    /**
     * Milliseconds since the kernel started this process, counted from the boot as the app's
     * ProcessClock does: the start ticks in /proc/self/stat against /proc/uptime. (ProcessHandle's
     * start instant adds the ticks to btime, whole seconds, so it is early by up to a second.)
     */
    private static long sinceStart() {
        try {
            long uptime = Math.round(Double.parseDouble(Files.readString(Path.of("/proc/uptime")).split(" ")[0]) * 1000);
            String stat = Files.readString(Path.of("/proc/self/stat"));
            return uptime - Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[19]) * 10;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void report(String lines) {
        try {
            Files.writeString(Path.of(System.getenv("RUNBOARD_STARTUP_REPORT")), "pid " + ProcessHandle.current().pid() + "\n" + lines + "\n",
                    StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
