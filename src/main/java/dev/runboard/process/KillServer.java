package dev.runboard.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The wrapper's kill mode kept running beside this process ({@code runboard-wrap.pl --kill -}): each local kill
 * is one line to it, and a fork of it does that kill exactly as {@code runboard-wrap.pl --kill ARGS} would, its
 * report going to an answer file in a private folder. A fork costs a fraction of a millisecond of CPU; a perl
 * started per kill cost a perl start and the wrapper script's compile, about 10 ms: on two cores, 100 kills at
 * once spent most of their time there (docs/BENCHMARKS.md §17). Started at the first kill; its input is closed
 * when no kill has come for {@link #IDLE} (it exits, and forks still killing finish), or with this JVM.
 */
final class KillServer {
    private static final Duration IDLE = Duration.ofSeconds(20);
    private static final HexFormat HEX = HexFormat.of();

    /** A kill's answer: what kill mode printed (the report) and wrote to stderr. */
    record Answer(String out, String err) {
    }

    /** The server could not take the kill, or ended before answering it: the kill is run on its own instead. */
    static final class Gone extends IOException {
        Gone(String message) {
            super(message);
        }
    }

    /** One started server: its input, the kills it has not answered yet, and whether its output has ended. */
    private record Running(Process process, OutputStream requests, Map<String, CompletableFuture<Void>> waiting,
                           java.util.concurrent.atomic.AtomicBoolean ended) {
    }

    private final List<String> command;
    /** Where the forks write their answers (each read and deleted at once): one folder for every server this starts. */
    private Path answers;
    private Running running;
    private long served;
    private int inFlight;
    private long lastUseNanos;

    /** {@code command}: the words that start the wrapper's kill mode, without its arguments ({@code perl SCRIPT --kill}). */
    KillServer(List<String> command) {
        this.command = List.copyOf(command);
    }

    /** The answer of the kill with kill mode's arguments {@code args}, as {@code runboard-wrap.pl --kill ARGS} gives it. */
    Answer kill(List<String> args) throws IOException, InterruptedException {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Running to;
        Path answer;
        synchronized (this) {
            to = start();
            answer = answers.resolve(Long.toString(++served));
            // Each word 'x' and its hex: an empty one (a session without a tag) stays a word.
            StringBuilder line = new StringBuilder("x").append(HEX.formatHex(answer.toString().getBytes(StandardCharsets.UTF_8)));
            args.forEach(a -> line.append(" x").append(HEX.formatHex(dev.runboard.session.RawText.encode(a))));
            to.waiting().put(answer.toString(), done);
            if (to.ended().get()) { // it ended as it started: its reader failed the kills it knew of before this one
                done.completeExceptionally(new Gone("the kill server ended"));
            }
            try {
                to.requests().write((line + "\n").getBytes(StandardCharsets.US_ASCII));
                to.requests().flush();
            } catch (IOException e) {
                to.waiting().remove(answer.toString());
                stop();
                throw new Gone("the kill server took no more kills (" + e.getMessage() + ")");
            }
            inFlight++;
        }
        Path errors = Path.of(answer + ".err");
        try {
            done.get();
            return new Answer(read(answer), read(errors));
        } catch (ExecutionException e) {
            throw new Gone(e.getCause().getMessage());
        } finally {
            to.waiting().remove(answer.toString());
            Files.deleteIfExists(answer);
            Files.deleteIfExists(errors);
            synchronized (this) {
                inFlight--;
                lastUseNanos = System.nanoTime();
            }
            CompletableFuture.delayedExecutor(IDLE.toMillis() + 100, TimeUnit.MILLISECONDS).execute(this::stopIfIdle);
        }
    }

    private Running start() throws IOException {
        if (running != null && running.process().isAlive()) {
            return running;
        }
        if (answers == null) {
            answers = Files.createTempDirectory("runboard-kills"); // 0700: reports name the session's processes
            answers.toFile().deleteOnExit(); // empty between kills
        }
        List<String> words = new java.util.ArrayList<>(command);
        words.add("-");
        Process process = new ProcessBuilder(words).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        Running started = new Running(process, process.getOutputStream(), new ConcurrentHashMap<>(),
                new java.util.concurrent.atomic.AtomicBoolean());
        running = started;
        Thread reader = new Thread(() -> readAnswers(started), "runboard-kill-server");
        reader.setDaemon(true);
        reader.start();
        return started;
    }

    /** Each line names an answer that is whole; at the server's end, the kills it had not answered are failed. */
    private void readAnswers(Running from) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(from.process().getInputStream(),
                StandardCharsets.US_ASCII))) {
            for (String line; (line = in.readLine()) != null; ) {
                CompletableFuture<Void> done = from.waiting().get(new String(HEX.parseHex(line.strip()), StandardCharsets.UTF_8));
                if (done != null) {
                    done.complete(null);
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            // ended, or a line that names no answer: as ended
        }
        from.ended().set(true);
        from.waiting().values().forEach(f -> f.completeExceptionally(new Gone("the kill server ended")));
        synchronized (this) {
            if (running == from) {
                running = null;
            }
        }
    }

    private synchronized void stopIfIdle() {
        if (inFlight == 0 && System.nanoTime() - lastUseNanos >= IDLE.toNanos()) {
            stop();
        }
    }

    /** Closes the server's input: it exits (a fork still killing finishes its kill and answers). */
    private synchronized void stop() {
        if (running == null) {
            return;
        }
        try {
            running.requests().close();
        } catch (IOException e) {
            running.process().destroy();
        }
        running = null;
    }

    private static String read(Path file) {
        try {
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
