package dev.runboard.remote;

import dev.runboard.process.ExitStatus;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The local stand-in for a command running on another host, so the engine handles it as it handles
 * its own children: it "exits" when the host's poll has found the command's exit status and every
 * byte of its output is in the local mirror. Its pid is the remote wrapper's. Its stdin reaches the
 * command through the host's connection ({@link RemoteStdin}). When the host lost the exit status,
 * it says so ({@link #exitStatusLost()}) instead of inventing an exit value.
 */
final class RemoteProcess extends Process implements dev.runboard.process.RemoteSessions.StandIn {
    private final long pid;
    private final CompletableFuture<Process> exit = new CompletableFuture<>();
    private volatile int exitValue;
    private volatile boolean lost;
    private final OutputStream stdin;
    /** Done once the host's poll has answered about this command (or failed) since it was followed. */
    private final CompletableFuture<Void> looked = new CompletableFuture<>();

    RemoteProcess(long pid, RemoteStdin.Sender sender) {
        this.pid = pid;
        this.stdin = new RemoteStdin(sender, exit::isDone);
    }

    /** The command has ended and its output is all here; {@code status} is the wrapper's line ("exit 3", "signal 9"). */
    void ended(String status) {
        exitValue = exitValueOf(status);
        exit.complete(this);
    }

    /** The command has ended (or is no longer ours to follow) and how is not known: the session ends unknown. */
    void endedWithStatusLost() {
        lost = true;
        exitValue = 255; // never read as an exit code: exitStatusLost() says so first
        exit.complete(this);
    }

    @Override
    public boolean exitStatusLost() {
        return lost;
    }

    /** The host's poll has answered about the command, or could not: whoever awaits the first look goes on. */
    void looked() {
        looked.complete(null);
    }

    @Override
    public boolean awaitFirstLook(java.time.Duration max) {
        try {
            looked.get(max.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException | java.util.concurrent.ExecutionException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Whether the text is a status the wrapper writes (read as local ones are: {@link ExitStatus}). */
    static boolean isStatus(String status) {
        return exitValueOf(status) >= 0;
    }

    /** The exit value a local wrapper's process would have had: the code, or 128+N for signal N; -1 when it is no status. */
    static int exitValueOf(String status) {
        return status == null ? -1 : ExitStatus.parse(status).map(ExitStatus::exitCode).orElse(-1);
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
            throw new IllegalThreadStateException("the remote command is still running");
        }
        return exitValue;
    }

    @Override
    public boolean isAlive() {
        return !exit.isDone();
    }

    /** Ending a remote command is a tree kill on its host (the engine's kill), never a local signal. */
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
