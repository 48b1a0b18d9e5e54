package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A runboard process for the PTY crash test: it starts the PTY sessions of {@link #specs}, prints
 * "name id" lines and "ready", and then waits to be killed with SIGKILL. The commands wait for files
 * the test creates, so what they do after the crash happens when the test says, not after a sleep.
 */
public final class CrashingPtyRunboard {
    private CrashingPtyRunboard() {
    }

    static Map<String, SessionSpec> specs(Path cwd) {
        Map<String, SessionSpec> specs = new LinkedHashMap<>();
        // Ends while no runboard runs; cat ends only if its stdin (the terminal) reaches end-of-file.
        specs.put("unwatched", sh(cwd, "test -t 0 && test -t 1 && echo tty || echo notty; echo start;"
                + " while [ ! -e go ]; do sleep 0.05; done; cat; echo after; exit 4"));
        // Adopted while it runs, then ends with a burst of output.
        specs.put("adopted", sh(cwd, "echo start; while [ ! -e go2 ]; do sleep 0.05; done; seq 1 20000; exit 5"));
        // Adopted, then killed by the next runboard; its TERM trap's output must still be captured.
        specs.put("killed", sh(cwd, "trap 'echo last words; exit 9' TERM; echo start; while :; do sleep 0.05; done"));
        return specs;
    }

    private static SessionSpec sh(Path cwd, String command) {
        return SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(cwd).pty(true).build();
    }

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[0]);
        SessionEngine engine = SessionEngine.forDataDir(dataDir);
        for (Map.Entry<String, SessionSpec> e : specs(dataDir).entrySet()) {
            Session s = engine.start(e.getValue());
            System.out.println(e.getKey() + " " + s.id());
        }
        System.out.println("ready");
        System.out.flush();
        System.in.read(); // until SIGKILL
    }
}
