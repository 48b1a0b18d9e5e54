package dev.runboard.remote;

import dev.runboard.testing.CrossForkLock;
import dev.runboard.testing.Exclusive;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A private sshd on 127.0.0.1 for the remote-session tests: its own host key and ports, {@code
 * UsePAM no}, public-key login only, for the second local user that .ci/sshd-setup makes (or, when
 * not root, the current user). It writes an ssh config with Host aliases: {@code rb-remote} (works),
 * {@code rb-noperl} (a port whose sessions get a PATH without perl), {@code rb-badauth} (a key the
 * server does not know), {@code rb-badkey} (a known_hosts with another host key), {@code
 * rb-unreachable} (a port nobody listens on). Without an sshd that can be installed, the tests are
 * skipped with the reason. Public for the Slurm tests that submit through a login host (slurm.SlurmLoginHostTest).
 */
public final class SshdFixture implements AutoCloseable {
    /** The test user; RUNBOARD_TEST_SSH_USER (as for .ci/sshd-setup) names another, so parallel runs keep apart. */
    static final String USER = System.getenv().getOrDefault("RUNBOARD_TEST_SSH_USER", "runboard-remote");
    final Path dir;
    public final Path config;
    public final String user;
    private final Process sshd;
    private final int port;
    private final int closedPort;
    private final String configText;

    private SshdFixture(Path dir, Path config, String user, Process sshd, int port, int closedPort) throws IOException {
        this.dir = dir;
        this.config = config;
        this.user = user;
        this.sshd = sshd;
        this.port = port;
        this.closedPort = closedPort;
        this.configText = Files.readString(config);
    }

    /** Makes rb-remote unreachable for new connections (as a network gone away), until {@link #reconnect()}. */
    void cutOff() throws IOException {
        Files.writeString(config, configText.replaceFirst("Port " + port + "\n", "Port " + closedPort + "\n"));
    }

    void reconnect() throws IOException {
        Files.writeString(config, configText);
    }

    /** The port rb-remote's connections go to (a client's TCP connection to the host has it as its far end). */
    int port() {
        return port;
    }

    /**
     * A network blackhole for rb-remote until {@link #lift(List)}: its open connections go silent (the
     * server's processes that serve them are stopped, so nothing they get is answered; their TCP
     * still takes the packets, as a dropped route's would time out rather than fail) and new ones are
     * turned away. Returns the stopped processes.
     */
    public List<ProcessHandle> blackhole() throws IOException {
        cutOff();
        // The listener first: an ssh call that read its config before the cut-off still has the open port, and a
        // connection it made would be served by a new, running process (as no real outage lets a connection through).
        signal("STOP", sshd.pid());
        List<ProcessHandle> stopped = new java.util.ArrayList<>(List.of(sshd.toHandle()));
        for (ProcessHandle h : sshd.descendants().filter(h -> h.info().command()
                .map(c -> c.endsWith("sshd") || c.endsWith("sshd-session")).orElse(false)).toList()) {
            signal("STOP", h.pid());
            stopped.add(h);
        }
        return stopped;
    }

    /** Ends the blackhole: the stopped processes go on (and find their clients gone), new connections are let in. */
    public void lift(List<ProcessHandle> stopped) throws IOException {
        for (ProcessHandle h : stopped) {
            signal("CONT", h.pid());
        }
        reconnect();
    }

    private static void signal(String name, long pid) throws IOException {
        try {
            run(List.of("kill", "-s", name, Long.toString(pid)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while sending " + name + " to " + pid);
        }
    }

    static SshdFixture start() throws Exception {
        Path sshdBin = Path.of("/usr/sbin/sshd");
        boolean root = "root".equals(System.getProperty("user.name"));
        // Remote test classes run side by side in several forks: one of them installs, the others wait for it.
        try (AutoCloseable installing = CrossForkLock.hold(Exclusive.PACKAGES)) {
            if (!Files.isExecutable(sshdBin) || root && run(List.of("id", USER)) != 0) {
                run(List.of("bash", Path.of(".ci/sshd-setup").toAbsolutePath().toString()));
            }
        }
        Assumptions.assumeTrue(Files.isExecutable(sshdBin),
                "no sshd here and it cannot be installed (run .ci/sshd-setup as root): remote tests skipped");
        String user = root && run(List.of("id", USER)) == 0 ? USER : System.getProperty("user.name");
        try {
            Files.createDirectories(Path.of("/run/sshd")); // root's sshd needs its privilege-separation folder
        } catch (IOException notRoot) {
            // an sshd run by a plain user does not use it
        }
        // Readable by the test user: sshd reads authorized_keys with that user's rights.
        Path dir = Files.createTempDirectory("rb-sshd", PosixFilePermissions.asFileAttribute(
                PosixFilePermissions.fromString("rwxr-xr-x")));
        for (String key : List.of("host", "other-host", "id", "stranger")) {
            run(List.of("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", dir.resolve(key).toString()));
        }
        Files.copy(dir.resolve("id.pub"), dir.resolve("authorized_keys"));
        Files.setPosixFilePermissions(dir.resolve("authorized_keys"), PosixFilePermissions.fromString("rw-r--r--"));
        int port = freePort();
        int noPerlPort = freePort();
        int closedPort = freePort();
        Files.writeString(dir.resolve("sshd_config"), String.join("\n",
                "Port " + port, "Port " + noPerlPort, "ListenAddress 127.0.0.1",
                "HostKey " + dir.resolve("host"), "PidFile " + dir.resolve("sshd.pid"),
                "UsePAM no", "PasswordAuthentication no", "KbdInteractiveAuthentication no", "PubkeyAuthentication yes",
                "AuthorizedKeysFile " + dir.resolve("authorized_keys"), "StrictModes no", "LogLevel ERROR",
                "MaxSessions 50", "MaxStartups 50",
                "Match LocalPort " + noPerlPort, "  SetEnv PATH=/nonexistent", ""));
        String hostKey = Files.readString(dir.resolve("host.pub")).split(" ")[0] + " "
                + Files.readString(dir.resolve("host.pub")).split(" ")[1];
        String otherKey = Files.readString(dir.resolve("other-host.pub")).split(" ")[0] + " "
                + Files.readString(dir.resolve("other-host.pub")).split(" ")[1];
        Files.writeString(dir.resolve("known_hosts"), "rb-remote " + hostKey + "\n");
        Files.writeString(dir.resolve("known_hosts_changed"), "rb-remote " + otherKey + "\n");
        Path config = dir.resolve("ssh_config");
        Files.writeString(config, block("rb-remote", port, user, dir.resolve("id"), dir.resolve("known_hosts"))
                + block("rb-noperl", noPerlPort, user, dir.resolve("id"), dir.resolve("known_hosts"))
                + block("rb-badauth", port, user, dir.resolve("stranger"), dir.resolve("known_hosts"))
                + block("rb-badkey", port, user, dir.resolve("id"), dir.resolve("known_hosts_changed"))
                + block("rb-unreachable", closedPort, user, dir.resolve("id"), dir.resolve("known_hosts")));
        Process sshd = new ProcessBuilder(sshdBin.toString(), "-D", "-e", "-f", dir.resolve("sshd_config").toString())
                .redirectErrorStream(true).redirectOutput(dir.resolve("sshd.log").toFile()).start();
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!listening(port)) {
            if (!sshd.isAlive() || System.nanoTime() > until) {
                sshd.destroyForcibly();
                throw new IllegalStateException("sshd did not start: " + Files.readString(dir.resolve("sshd.log")));
            }
            Thread.onSpinWait();
        }
        return new SshdFixture(dir, config, user, sshd, port, closedPort);
    }

    private static String block(String alias, int port, String user, Path key, Path knownHosts) {
        return "Host " + alias + "\n  HostName 127.0.0.1\n  Port " + port + "\n  User " + user + "\n  IdentityFile " + key
                + "\n  IdentitiesOnly yes\n  UserKnownHostsFile " + knownHosts
                + "\n  StrictHostKeyChecking yes\n  HostKeyAlias rb-remote\n  BatchMode yes\n\n";
    }

    /** The uid the "remote" sessions run as. */
    int uid() throws IOException {
        Process p = new ProcessBuilder("id", "-u", user).start();
        return Integer.parseInt(new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip());
    }

    /** The remote user's home (where runboard's folder goes). */
    public Path home() throws IOException {
        Process p = new ProcessBuilder("sh", "-c", "getent passwd " + user + " | cut -d: -f6").start();
        return Path.of(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip());
    }

    private static boolean listening(int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static int run(List<String> argv) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        return p.waitFor(300, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }

    @Override
    public void close() throws Exception {
        // The per-connection sshd processes first: they hold the ssh masters the tests opened.
        sshd.descendants().forEach(ProcessHandle::destroy);
        sshd.destroy();
        if (!sshd.waitFor(10, TimeUnit.SECONDS)) {
            sshd.destroyForcibly();
        }
        run(List.of("rm", "-rf", dir.toString()));
    }

    /**
     * Removes what {@code dataDir}'s sessions left on the host (their folder under the test user's
     * runboard-remote), and only that: remote test classes run side by side in other forks, each with
     * its own data dirs, as the same user.
     */
    public void forget(Path dataDir) throws Exception {
        if (USER.equals(user)) { // a real user's home is left alone
            run(List.of("rm", "-rf", home().resolve(".cache/runboard-remote/" + SshSessions.clientIdFor(dataDir)).toString()));
        }
    }
}
