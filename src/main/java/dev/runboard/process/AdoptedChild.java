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
 */
final class AdoptedChild extends Process implements RemoteSessions.StandIn {
    private final ProcessHandle handle;

    AdoptedChild(ProcessHandle handle) {
        this.handle = handle;
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
        return handle.onExit().thenApply(h -> this);
    }

    @Override
    public int waitFor() throws InterruptedException {
        try {
            handle.onExit().get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(e);
        }
        return exitValue();
    }

    @Override
    public int exitValue() {
        if (handle.isAlive()) {
            throw new IllegalThreadStateException("process " + handle.pid() + " has not exited");
        }
        return 255; // never read as the command's: exitStatusLost() says so first
    }

    @Override
    public boolean isAlive() {
        return handle.isAlive();
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
