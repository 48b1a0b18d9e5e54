package dev.runboard.remote;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.process.EngineFixture;
import dev.runboard.process.SessionEngine;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionSpec;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An in-process engine on a data dir whose sessions run on the test sshd's {@code rb-remote}, as the
 * remote session tests use it. Closing kills what is left, checks that nothing of it lives on the
 * host, and removes the data dir's folder there.
 */
final class RemoteEngineFixture implements AutoCloseable {
    static final String HOST = "rb-remote";
    static final Duration LONG = Duration.ofSeconds(90);

    private final SshdFixture sshd;
    private final Path dataDir;
    SessionEngine engine;
    SshSessions remote;

    RemoteEngineFixture(SshdFixture sshd, Path dataDir) throws Exception {
        this.sshd = sshd;
        this.dataDir = dataDir;
        open();
    }

    private void open() throws Exception {
        engine = SessionEngine.forDataDir(dataDir);
        remote = new SshSessions(dataDir, sshd.config);
        engine.useRemote(remote);
    }

    /** The owner goes away (the command runs on) and a new one on the same data dir reads the history. */
    void reopen() throws Exception {
        leave();
        takeOver();
    }

    /** The owner goes away, as a dead supervisor does: the commands run on their host, nobody follows them. */
    void leave() {
        engine.close();
        remote.close();
    }

    /** A new owner on the same data dir reads the history and takes over what it finds. */
    void takeOver() throws Exception {
        open();
        engine.loadHistory();
    }

    SessionSpec.Builder sh(String command) {
        return SessionSpec.shell(command).shell(Path.of("/bin/sh")).cwd(Path.of("/tmp")).host(HOST);
    }

    /** Kills the ssh master of the host's connection, as a dropped network would end it. */
    void killMaster() throws Exception {
        List<String> argv = new ArrayList<>(remote.link(HOST).ssh().argv("true"));
        argv.remove(argv.size() - 1);
        argv.addAll(argv.indexOf("--"), List.of("-O", "check"));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String said = new String(p.getInputStream().readAllBytes());
        Matcher m = Pattern.compile("pid=(\\d+)").matcher(said);
        assertTrue(m.find(), "a master runs: " + said);
        ProcessHandle.of(Long.parseLong(m.group(1))).ifPresent(ProcessHandle::destroyForcibly);
    }

    /** A remote session's end, waited for as long as a slow link may take. */
    static SessionSnapshot awaitEnd(Session s) throws Exception {
        return EngineFixture.awaitEnd(s, LONG);
    }

    @Override
    public void close() throws Exception {
        engine.killAll(Duration.ZERO);
        for (Session s : engine.sessions()) {
            EngineFixture.assertNoneLeft(s, "processes of " + s.id() + " left behind on the remote");
        }
        engine.close();
        remote.dropConnection(HOST);
        sshd.forget(dataDir);
    }
}
