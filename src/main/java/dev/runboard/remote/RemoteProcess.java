package dev.runboard.remote;

import dev.runboard.process.ExitStatus;
import dev.runboard.process.StandInProcess;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The local stand-in for a command running on another host, so the engine handles it as it handles
 * its own children: it "exits" when the host's poll has found the command's exit status and every
 * byte of its output is in the local mirror. Its pid is the remote wrapper's. Its stdin reaches the
 * command through the host's connection ({@link RemoteStdin}). When the host lost the exit status,
 * it says so ({@link #exitStatusLost()}) instead of inventing an exit value.
 */
final class RemoteProcess extends StandInProcess {
    /** Done once the host's poll has answered about this command (or failed) since it was followed. */
    private final CompletableFuture<Void> looked = new CompletableFuture<>();

    RemoteProcess(long pid, RemoteStdin.Sender sender) {
        this(pid, sender, new java.util.concurrent.atomic.AtomicBoolean());
    }

    private RemoteProcess(long pid, RemoteStdin.Sender sender, java.util.concurrent.atomic.AtomicBoolean done) {
        super(pid, new RemoteStdin(sender, done::get)); // its input ends with the command
        onExit().thenRun(() -> done.set(true));
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
}
