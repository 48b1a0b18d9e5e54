package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.testing.Gate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A runboard process for the crash test: it starts the sessions of {@link #specs}, prints
 * "name id" lines and "ready", and then waits to be killed with SIGKILL.
 */
public final class CrashingRunboard {
    private CrashingRunboard() {
    }

    /**
     * The five sessions of issue 4 (quick, slow, failing, noisy, TERM-ignorer) and one with a deadline.
     * All but quick and the deadline wait for the {@link Gate} {@value #GATE} in {@code cwd} before they
     * go on to end: the test opens it once it has seen them outlive the crash (a fixed sleep let the
     * failing one end before runboard was killed).
     */
    static Map<String, SessionSpec> specs(Path cwd) {
        Map<String, SessionSpec> specs = new LinkedHashMap<>();
        specs.put("quick", sh(cwd, "echo quick; exit 0").build());
        specs.put("failing", sh(cwd, "echo about to fail; " + Gate.waitFor(GATE) + "echo failing >&2; exit 3").build());
        specs.put("slow", sh(cwd, "echo slow start; " + Gate.waitFor(GATE) + "sleep 1; echo slow done").build());
        specs.put("noisy", sh(cwd, "seq 1 100000; " + Gate.waitFor(GATE) + "seq 100001 200000").build());
        specs.put("stubborn", sh(cwd, "trap '' TERM; echo ignoring TERM; sleep 30").grace(Duration.ofMillis(500)).build());
        specs.put("deadline", sh(cwd, "echo waiting; sleep 30").timeout(Duration.ofSeconds(4)).grace(Duration.ofMillis(500)).build());
        return specs;
    }

    static final String GATE = "gate";

    private static SessionSpec.Builder sh(Path cwd, String command) {
        return SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(cwd);
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
