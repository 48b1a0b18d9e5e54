package dev.runboard.process;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;

/**
 * The wrapper of an {@link EarlyLaunch}, as the {@link Process} the engine manages. It is this
 * JVM's child but not one it started, so the JDK watches its end (waitid, without reaping: no
 * polling) but cannot tell its exit value: the wrapper's status file says how the command ended,
 * and without one the end is unknown ({@link RemoteSessions.StandIn}), never an invented code.
 * Its stdin is this process's own, inherited, as exec's command's always is.
 *
 * <p>A supervisor adopts such a wrapper for the exec client that is its parent: not the
 * supervisor's child, so the JDK could only poll for its end. The client, which waits for its
 * own child, reports the end instead ({@code reported}); the JDK's poll stays as the backstop for a
 * client that died.
 */
final class AdoptedChild extends Process implements RemoteSessions.StandIn {
    private final ProcessHandle handle;
    private final CompletableFuture<Process> exited;

    AdoptedChild(ProcessHandle handle) {
        this(handle, null);
    }

    /** {@code reported}: completed by whoever waits for the wrapper as its parent; null when that is this JVM. */
    AdoptedChild(ProcessHandle handle, CompletableFuture<?> reported) {
        this.handle = handle;
        this.exited = handle.onExit().thenApply(h -> (Process) this);
        if (reported != null) { // no lambda linked on exec's own path, where each costs its JVM ~0.4 ms
            reported.thenRun(() -> exited.complete(this));
        }
    }

    @Override
    public boolean exitStatusLost() {
        return true; // the status file is read first; this says only that the JDK has no value to add
    }

    @Override
    public long pid() {
        return handle.pid();
    }

    @Override
    public ProcessHandle toHandle() {
        return handle;
    }

    @Override
    public CompletableFuture<Process> onExit() {
        return exited;
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            exited.get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
        return exitValue();
    }

    @Override
    public int exitValue() {
        if (isAlive()) {
            throw new IllegalThreadStateException("process " + handle.pid() + " has not exited");
        }
        return 255; // never read as the command's: exitStatusLost() says so first
    }

    @Override
    public boolean isAlive() {
        return !exited.isDone() && handle.isAlive();
    }

    @Override
    public void destroy() {
        handle.destroy();
    }

    @Override
    public Process destroyForcibly() {
        handle.destroyForcibly();
        return this;
    }

    @Override
    public OutputStream getOutputStream() {
        return OutputStream.nullOutputStream();
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
