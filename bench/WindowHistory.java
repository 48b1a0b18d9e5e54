import dev.runboard.session.OutputPreview;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionState;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.AtomicFiles;
import dev.runboard.store.SessionRecord;
import dev.runboard.store.SessionStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * Writes a history of N finished sessions into a data dir through the store API, as the supervisor
 * would have left them: a record (with its preview) and a small capture per session. Fast (no
 * command is run, no fsync: a benchmark's data dir need not survive a power cut), and the same
 * history every time (a fixed seed).
 * Run: java -cp 'target/classes:target/lib/*' bench/WindowHistory.java DATA_DIR N
 */
public class WindowHistory {
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);
    private static final List<String> COMMANDS = List.of("make test", "./gradlew build", "npm run lint", "cargo test --release",
            "pytest -q tests/", "docker build -t app .", "go test ./...", "rsync -a src/ backup/", "mvn -q verify",
            "python train.py --epochs 3");

    public static void main(String[] args) throws Exception {
        Path dataDir = Path.of(args[0]);
        int count = Integer.parseInt(args[1]);
        AtomicFiles plain = WindowHistory::writePrivate;
        SessionStore store = new SessionStore(dataDir, plain);
        Random random = new Random(16);
        Instant first = Instant.now().minus(Duration.ofMinutes(count + 60L));
        for (int i = 0; i < count; i++) {
            Instant started = first.plus(Duration.ofMinutes(i)).plusMillis(random.nextInt(60_000));
            String id = STAMP.format(started) + "-" + HexFormat.of().formatHex(new byte[] {(byte) random.nextInt(), (byte) random.nextInt(),
                    (byte) random.nextInt()});
            String command = COMMANDS.get(i % COMMANDS.size()) + (i % 7 == 0 ? " --verbose" : "");
            Path cwd = dataDir.resolve("projects/p" + (i % 25));
            SessionSpec spec = SessionSpec.shell(command).cwd(cwd).env("CI", "1").build();
            byte[] output = output(random, i);
            Path dir = store.dirOf(id);
            dev.runboard.store.DataDirs.createPrivateDirectories(dir);
            Path capture = store.file(id, SessionStore.CAPTURE);
            writePrivate(capture, output);
            boolean failed = i % 9 == 0;
            SessionOutcome outcome = new SessionOutcome(failed ? SessionStatus.FAILED : SessionStatus.COMPLETED,
                    started.plusMillis(500 + random.nextInt(120_000)), failed ? 2 : 0, null,
                    failed ? "exited with code 2" : null, OutputPreview.of(output, spec.previewBytes()), null, null, null,
                    capture.toString());
            store.save(SessionRecord.of(id, spec, new SessionState.Ended(started, 100_000L + i, 1_000L + i, outcome, null, null,
                    List.of())));
        }
        System.out.println("wrote " + count + " finished sessions into " + dataDir);
    }

    private static void writePrivate(Path file, byte[] content) throws java.io.IOException {
        if (!Files.exists(file)) {
            dev.runboard.store.DataDirs.createPrivateFile(file);
        }
        Files.write(file, content);
    }

    /** 20 to 80 lines of build-like output (1 to 6 KiB). */
    private static byte[] output(Random random, int session) {
        StringBuilder out = new StringBuilder();
        int lines = 20 + random.nextInt(60);
        for (int line = 0; line < lines; line++) {
            out.append(String.format("[%04d] %s step %d of session %d: %s%n", line, line % 10 == 3 ? "WARN" : "INFO", line, session,
                    "compiled module-" + random.nextInt(1000) + " in " + random.nextInt(900) + " ms"));
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }
}
