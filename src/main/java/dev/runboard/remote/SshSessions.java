package dev.runboard.remote;

import dev.runboard.process.RemoteSessions;
import dev.runboard.process.WrapperReport;
import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.ProcessRef;
import dev.runboard.session.Session;
import dev.runboard.session.SessionSpec;
import dev.runboard.session.SessionStatus;
import dev.runboard.session.Signal;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Remote sessions over OpenSSH: one {@link HostLink} (one multiplexed connection, one poller) per
 * host. The user's ssh config is read as ssh reads it; {@code RUNBOARD_SSH_CONFIG} (or the
 * constructor) names another config file, passed with {@code -F}; the {@code ssh_config} setting
 * names an extra file read before either ({@link SshConfigFile}).
 */
public final class SshSessions implements RemoteSessions {
    /** Names an ssh config file to use instead of ~/.ssh/config (it may Include that one). */
    public static final String CONFIG_VAR = "RUNBOARD_SSH_CONFIG";

    private final Path configFile;
    private final Path controlDir;
    private final String clientId;
    private final Clock clock = Clock.systemUTC();
    private final Map<String, HostLink> links = new ConcurrentHashMap<>();
    private final List<Consumer<Session>> listeners = new CopyOnWriteArrayList<>();

    /**
     * @param dataDir the local data dir: it names this client on the remote (its own folder there),
     *     and holds the control sockets when {@code $XDG_RUNTIME_DIR} is not set
     * @param configFile an ssh config file for {@code -F}, or null for the user's own
     */
    public SshSessions(Path dataDir, Path configFile) throws IOException {
        this(dataDir, configFile, null);
    }

    /** As above, with {@code extraConfig} (the {@code ssh_config} setting) read before the user's config; null: none. */
    public SshSessions(Path dataDir, Path configFile, Path extraConfig) throws IOException {
        this.controlDir = ControlDir.create(dataDir);
        SshCommand.sweepOldErrorFiles(controlDir);
        this.configFile = SshConfigFile.of(controlDir, configFile, extraConfig);
        this.clientId = clientIdFor(dataDir);
    }

    /** The name of the folder a data dir's sessions have on every host: this machine's name and the data dir's path, hashed. */
    public static String clientIdFor(Path dataDir) {
        return SshCommand.shortHash(hostName() + "\0" + dataDir.toAbsolutePath());
    }

    /**
     * For the supervisor and exec: the config file from {@value #CONFIG_VAR} when set, and the data
     * dir's {@code ssh_config} setting (read when they start).
     */
    public static SshSessions forDataDir(Path dataDir) throws IOException {
        // The system property is for tests that run the CLI in-process (they cannot set a variable).
        String config = System.getProperty("runboard.ssh.config", System.getenv(CONFIG_VAR));
        String extra = new dev.runboard.store.SettingsStore(dataDir).load().settings().sshConfig();
        return new SshSessions(dataDir, config == null || config.isBlank() ? null : Path.of(config),
                extra == null ? null : Path.of(extra));
    }

    /** This client's folder name on every host ({@code ~/.cache/runboard-remote/ID}; benchmarks put outputs there). */
    public String clientId() {
        return clientId;
    }

    /** {@code host} as a login host for another target's commands (a Slurm cluster's), over this host's one connection. */
    public LoginHost loginHost(String host) {
        return new LoginHost(this, link(host));
    }

    HostLink link(String host) {
        return links.computeIfAbsent(host, h -> new HostLink(new SshCommand(h, configFile, controlDir), clientId, clock,
                s -> listeners.forEach(l -> l.accept(s))));
    }

    @Override
    public void prepare(String host) throws InvalidSpecException {
        HostLink link = link(host);
        try {
            link.prepare();
        } catch (IOException e) {
            closeIdleMaster(link);
            throw new InvalidSpecException("host", "host " + host + ": " + e.getMessage()
                    + "; check that OpenSSH's ssh is installed and that `ssh " + host + "` works");
        } catch (InvalidSpecException e) {
            closeIdleMaster(link);
            throw e;
        }
    }

    /**
     * A refused start (no perl, a full disk, no such folder) ends the master connection the check
     * opened when no session of the host needs it: ControlPersist would keep it for minutes.
     */
    private static void closeIdleMaster(HostLink link) {
        if (link.idle()) {
            try {
                link.ssh().exitMaster();
            } catch (IOException ignored) {
                // no master, or none to reach: nothing lingers
            }
        }
    }

    @Override
    public Launched launch(Session session, Path exitStatusFile) throws IOException {
        SessionSpec spec = session.spec();
        HostLink link = link(spec.host());
        ByteArrayOutputStream request = new ByteArrayOutputStream();
        List<String> fields = new ArrayList<>(List.of(session.id(),
                Long.toString(spec.timeout() == null ? 0 : spec.timeout().toMillis()),
                Long.toString(spec.grace().toMillis()), dev.runboard.session.RawPaths.text(spec.cwd()), Integer.toString(spec.nice()),
                session.tag(), Integer.toString(spec.env().size())));
        spec.env().forEach((k, v) -> fields.add(k + "=" + v));
        fields.addAll(spec.launchArgv());
        for (String f : fields) {
            request.write(dev.runboard.session.RawText.encode(f)); // every byte as given, UTF-8 or not (RawText)
            request.write(0);
        }
        SshCommand.Result r = link.ssh().run(link.helper("launch"), request.toByteArray());
        String answer;
        try {
            answer = RemoteInstall.answer(link.ssh(), r);
        } catch (InvalidSpecException e) {
            closeIdleMaster(link);
            throw new IOException(e.getMessage());
        }
        String[] w = answer.split(" ");
        if (w.length != 3 || !w[0].equals("ok")) {
            throw new IOException("host " + spec.host() + ": the remote helper answered " + answer);
        }
        long pid = Long.parseLong(w[1]);
        long ticks = Long.parseLong(w[2]);
        return new Launched(link.follow(session, exitStatusFile, pid, ticks), pid, ticks);
    }

    @Override
    public Process reattach(Session session, Path exitStatusFile) {
        try {
            return link(session.spec().host()).follow(session, exitStatusFile, session.pid(), session.pidStartTicks());
        } catch (IOException e) {
            return null;
        }
    }

    @Override
    public WrapperReport kill(Session session, Signal signal, Duration grace, SessionStatus why, String reason) {
        HostLink link = link(session.spec().host());
        SshCommand.Result r;
        try {
            r = link.ssh().run(link.helper("kill", session.id(), String.valueOf(session.pid()),
                    Long.toString(session.pidStartTicks()), signal.name(), Long.toString(grace.toMillis()), why.word(),
                    session.tag()), null);
        } catch (IOException e) {
            throw new IllegalStateException("host " + link.host() + ": " + e.getMessage(), e);
        }
        if (r.sshFailed()) {
            throw new IllegalStateException(SshProblem.ofSsh(link.host(), r.err()) + "; the kill is not done");
        }
        // The host's wrapper checked its survivors against its own /proc as the kill ended.
        WrapperReport report = WrapperReport.parse(r.text(), reason, session.pid(), (pid, start) -> true);
        if (report == null) {
            throw new IllegalStateException("host " + link.host() + ": the kill gave no report"
                    + (r.err().isBlank() ? "" : " (" + r.err().strip() + ")"));
        }
        return report.withNote("on host " + link.host());
    }

    @Override
    public boolean signal(Session session, Signal signal) {
        HostLink link = link(session.spec().host());
        try {
            SshCommand.Result r = link.ssh().run(link.helper("signal", session.id(), String.valueOf(session.pid()),
                    Long.toString(session.pidStartTicks()), signal.name()), null);
            return r.exit() == 0 && r.text().startsWith("ok");
        } catch (IOException e) {
            return false;
        }
    }

    @Override
    public dev.runboard.process.ResourceSampler.Usage usage(Session session) {
        HostLink link = links.get(session.spec().host());
        return link == null ? null : link.usage(session.id());
    }

    @Override
    public void onChange(Consumer<Session> listener) {
        listeners.add(listener);
    }

    /**
     * A session's output file on its host, read by byte ranges as it is needed (the viewer's pages
     * of an output not all mirrored here yet, a download), over the host's shared connection.
     */
    public dev.runboard.artifact.ByteSource output(String host, String sessionId) {
        return new RemoteOutput(link(host), sessionId);
    }

    /** Drops the host's master connection, as a network failure would (tests, and a reconnect by hand). */
    public void dropConnection(String host) throws IOException {
        link(host).ssh().exitMaster();
    }

    @Override
    public void close() {
        links.values().forEach(HostLink::close);
    }

    private static String hostName() {
        try {
            return java.net.InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
