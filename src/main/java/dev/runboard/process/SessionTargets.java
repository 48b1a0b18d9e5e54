package dev.runboard.process;

import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where an engine's non-local sessions run: an ssh host ({@code dev.runboard.remote}) or a Slurm job
 * ({@code dev.runboard.slurm}), each plugged in by the owner. The engine asks this one seam and it
 * passes each call to the session's target, so the engine has one path for all of them (launch,
 * follow, re-attach, kill) and no ssh or Slurm of its own.
 */
final class SessionTargets implements RemoteSessions {
    private volatile RemoteSessions ssh = RemoteSessions.NONE;
    private volatile RemoteSessions slurm = NO_SLURM;

    void useSsh(RemoteSessions sessions) {
        ssh = sessions;
    }

    void useSlurm(RemoteSessions sessions) {
        slurm = sessions;
    }

    private RemoteSessions of(SessionSpec spec) {
        return spec.isSlurm() ? slurm : ssh;
    }

    @Override
    public void prepare(String host) {
        ssh.prepare(host);
    }

    @Override
    public void prepare(SessionSpec spec) {
        of(spec).prepare(spec);
    }

    @Override
    public Launched launch(Session session, Path exitStatusFile) throws IOException {
        return of(session.spec()).launch(session, exitStatusFile);
    }

    @Override
    public Launched launch(Session session, Path exitStatusFile, Map<String, String> baseEnv) throws IOException {
        return of(session.spec()).launch(session, exitStatusFile, baseEnv);
    }

    @Override
    public Process reattach(Session session, Path exitStatusFile) {
        return of(session.spec()).reattach(session, exitStatusFile);
    }

    @Override
    public WrapperReport kill(Session session, Signal signal, Duration grace, SessionStatus why, String reason) {
        return of(session.spec()).kill(session, signal, grace, why, reason);
    }

    @Override
    public boolean signal(Session session, Signal signal) {
        return of(session.spec()).signal(session, signal);
    }

    @Override
    public ResourceSampler.Usage usage(Session session) {
        return of(session.spec()).usage(session);
    }

    /** Both targets' changes reach the listener (each target is told once, when it is plugged in: see SessionEngine). */
    @Override
    public void onChange(Consumer<Session> listener) {
        ssh.onChange(listener);
        slurm.onChange(listener);
    }

    /** Slurm first: its login hosts may go through the ssh target (SlurmSessions shares the owner's). */
    @Override
    public void close() {
        slurm.close();
        ssh.close();
    }

    /** No Slurm plugged in: a Slurm spec is refused before anything is created. */
    private static final RemoteSessions NO_SLURM = new UnreachableTarget("slurm", host -> "submit Slurm jobs",
            "Slurm sessions", session -> "is a Slurm job");
}
