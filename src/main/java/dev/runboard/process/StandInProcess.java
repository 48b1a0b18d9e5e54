package dev.runboard.process;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The local stand-in for a command whose wrapper runs elsewhere (a Slurm job on a node), so the
 * engine handles it as it handles its own children: it "exits" when whoever follows the command has
 * found its end. Its pid is the name the engine keeps for it (a Slurm job's id). When nobody can know
 * how the command ended, it says so ({@link #exitStatusLost()}) instead of inventing an exit value;
 * whoever ends it that way first records why with {@code Session#requestEnd}.
 */
public class StandInProcess extends Process implements RemoteSessions.StandIn {
    private final long pid;
    private final CompletableFuture<Process> exit = new CompletableFuture<>();
    private final OutputStream stdin;
    private volatile int exitValue;
    private volatile boolean lost;

    /** {@code stdin}: where input for the command goes; null: it reads none (input is refused). */
    public StandInProcess(long pid, OutputStream stdin) {
        this.pid = pid;
        this.stdin = stdin != null ? stdin : OutputStream.nullOutputStream();
    }

    /** The command has ended with the wrapper's status line ("own exit 3", "timeout signal 15"). */
    public void ended(String status) {
        exitValue = ExitStatus.parse(status).map(ExitStatus::exitCode).orElse(255);
        exit.complete(this);
    }

    /** The command has ended (or is no longer anyone's to follow) and how is not known: the session ends unknown. */
    public void endedWithStatusLost() {
        lost = true;
        exitValue = 255; // never read as an exit code: exitStatusLost() says so first
        exit.complete(this);
    }

    @Override
    public boolean exitStatusLost() {
        return lost;
    }

    @Override
    public long pid() {
        return pid;
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return exit;
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            exit.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
        return exitValue;
    }

    @Override
    public boolean waitFor(long timeout, TimeUnit unit) throws InterruptedException {
        try {
            exit.get(timeout, unit);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int exitValue() {
        if (!exit.isDone()) {
            throw new IllegalThreadStateException("the command is still running");
        }
        return exitValue;
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    /** Ending the command is the engine's tree kill (its wrapper's, where it runs), never a local signal. */
    @Override
    public void destroy() {
    }

    @Override
    public OutputStream getOutputStream() {
        return stdin;
    }

    @Override
    public InputStream getInputStream() {
        return InputStream.nullInputStream();
    }

    @Override
    public InputStream getErrorStream() {
        return InputStream.nullInputStream();
    }
}
