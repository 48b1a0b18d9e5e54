package dev.runboard.remote;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.Session;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A host where another target's commands run over this layer's connection: a Slurm cluster's login host, where
 * sbatch, squeue and scancel run and the job's folder is (the helper's {@code s/ID}, which the cluster's nodes
 * share). It runs commands there over the host's one multiplexed connection, writes and looks at a session's files
 * through the helper, and mirrors a session's output here as an ssh session's is ({@link HostLink#mirror}), while
 * the other target decides how the session ends.
 */
public final class LoginHost {
    private final SshSessions sessions;
    private final HostLink link;

    LoginHost(SshSessions sessions, HostLink link) {
        this.sessions = sessions;
        this.link = link;
    }

    public String host() {
        return link.host();
    }

    /** The host is reachable, logged in, has perl, the helper and room: else a one-line {@link InvalidSpecException}. */
    public void prepare() {
        sessions.prepare(link.host());
    }

    /** The folder of the session's files on the host (the helper's {@code s/ID}; made by the first {@link #put}). */
    public String folder(String sessionId) throws IOException {
        return link.dir() + "/s/" + sessionId;
    }

    /** runboard's session wrapper on the host (installed with the helper, the same version as this runboard's). */
    public String wrapper() throws IOException {
        return link.dir() + "/" + RemoteInstall.WRAPPER;
    }

    /** What a command run on the host gave: its exit code (127: not found there), its stdout and stderr. */
    public record Result(int exit, String out, String err) {
    }

    /**
     * Runs {@code argv} on the host with {@code env} added to its login's environment, no input. An IOException with
     * one line naming the host when ssh itself failed.
     */
    public Result run(Map<String, String> env, List<String> argv) throws IOException {
        SshCommand.Result r = link.ssh().connected(link.ssh().run(commandLine(env, argv), new byte[0]));
        return new Result(r.exit(), r.text(), r.err());
    }

    /** {@code env NAME=VALUE... ARGV...} for the remote user's shell, whatever shell it is. */
    private static String commandLine(Map<String, String> env, List<String> argv) {
        StringBuilder sb = new StringBuilder("env");
        env.forEach((k, v) -> {
            if (!k.matches("[A-Za-z_][A-Za-z0-9_]*")) {
                throw new IllegalArgumentException("not a variable name: " + k);
            }
            sb.append(' ').append(SshCommand.quote(k + "=" + v));
        });
        return sb.append(words(argv)).toString();
    }

    private static String words(List<String> argv) {
        StringBuilder sb = new StringBuilder();
        argv.forEach(w -> sb.append(' ').append(SshCommand.quote(w)));
        return sb.toString();
    }

    /** Writes {@code content} whole into the session's folder on the host (0600, made with the folder if missing). */
    public void put(String sessionId, String name, byte[] content) throws IOException {
        helperAnswer(link.ssh().run(link.helper("put", sessionId, name), content));
    }

    /** Removes these files of the session's folder on the host (those there). */
    public void drop(String sessionId, String... names) throws IOException {
        List<String> words = new ArrayList<>(List.of("drop", sessionId));
        words.addAll(List.of(names));
        helperAnswer(link.ssh().run(link.helper(words.toArray(String[]::new)), null));
    }

    /** A file of a session's folder: when it was last written (epoch ms), its content when asked for (else empty). */
    public record FileFact(long modifiedMillis, byte[] content) {
        public String text() {
            return new String(content, StandardCharsets.UTF_8);
        }
    }

    /** One {@link #look}: what the command gave (null when none was run), and the files found, by session and name. */
    public record Look(Result run, Map<String, Map<String, FileFact>> files) {
        /** The session's file of that name; null when it is not there (or not a regular file). */
        public FileFact file(String sessionId, String name) {
            return files.getOrDefault(sessionId, Map.of()).get(name);
        }
    }

    /**
     * One ssh call: runs {@code argv} (none when empty) with {@code env}, then looks at the files {@code names} in
     * each session's folder, bringing the content of those in {@code read} (up to 1 MiB each). The command runs
     * first, so that what it says (Slurm's view of the jobs) is never newer than the files.
     */
    public Look look(List<String> sessionIds, List<String> names, java.util.Set<String> read, Map<String, String> env,
                     List<String> argv) throws IOException {
        List<String> words = new ArrayList<>(List.of("look"));
        names.forEach(n -> words.add(read.contains(n) ? "+" + n : n));
        StringBuilder ids = new StringBuilder();
        sessionIds.forEach(id -> ids.append(id).append('\n'));
        String command = link.helper(words.toArray(String[]::new));
        if (!argv.isEmpty()) {
            command = commandLine(env, List.of()) + " " + command + " --" + words(argv);
        }
        Look[] look = new Look[1];
        SshCommand.Result r = link.ssh().connected(link.ssh().run(command, ids.toString().getBytes(StandardCharsets.UTF_8), in -> {
            look[0] = parse(in);
            return new byte[0];
        }));
        if (r.exit() != 0 || look[0] == null) {
            throw new IOException("host " + link.host() + ": the remote helper's look failed (exit " + r.exit() + "): "
                    + r.err());
        }
        return look[0];
    }

    private static Look parse(InputStream in) throws IOException {
        Result run = null;
        Map<String, Map<String, FileFact>> files = new LinkedHashMap<>();
        String header;
        while ((header = HelperLines.read(in, "a look")) != null) {
            String[] f = header.split(" ");
            if (f.length == 4 && f[0].equals("run")) {
                String out = new String(bytes(in, Integer.parseInt(f[2])), StandardCharsets.UTF_8);
                String err = new String(bytes(in, Integer.parseInt(f[3])), StandardCharsets.UTF_8);
                run = new Result(Integer.parseInt(f[1]), out, err);
            } else if (f.length == 5 && f[0].equals("f")) {
                long modified = Long.parseLong(f[3]);
                byte[] content = bytes(in, Integer.parseInt(f[4]));
                if (modified >= 0) {
                    files.computeIfAbsent(f[1], k -> new LinkedHashMap<>()).put(f[2], new FileFact(modified, content));
                }
            } else {
                throw new IOException("the remote helper's look answered something unexpected: " + header);
            }
        }
        return new Look(run, files);
    }

    private static byte[] bytes(InputStream in, int length) throws IOException {
        byte[] b = in.readNBytes(length);
        if (b.length < length) {
            throw new IOException("the connection ended in the middle of a look");
        }
        return b;
    }


    /**
     * Mirrors the session's output from its folder on the host into its local capture, from the capture's end on;
     * once the folder's {@code status} is there and every byte here, the status goes into {@code exitStatusFile}.
     * Its connection shows as an ssh session's does; its end is the caller's ({@link #done}).
     */
    public void mirror(Session session, Path exitStatusFile) throws IOException {
        link.mirror(session, exitStatusFile);
    }

    /** Whether the session's output is still being mirrored: false once its status and every byte are here, or given up. */
    public boolean mirrors(String sessionId) {
        return link.mirrors(sessionId);
    }

    /** The session has ended: no more mirroring, and its folder on the host is removed. */
    public void done(String sessionId) {
        link.unmirror(sessionId);
    }

    private String helperAnswer(SshCommand.Result r) throws IOException {
        try {
            return RemoteInstall.answer(link.ssh(), r);
        } catch (InvalidSpecException e) {
            throw new IOException(e.getMessage());
        }
    }
}
