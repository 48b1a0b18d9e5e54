package dev.runboard.remote;

import dev.runboard.session.InvalidSpecException;
import dev.runboard.session.ProcessTreeSnapshot;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Brings runboard's helper and session wrapper to a host, into a 0700 folder of this client's own
 * ({@code ~/.cache/runboard-remote/CLIENT}: not the remote user's runboard data dir, so no runboard
 * there adopts these sessions). A version file (a hash of both scripts) says whether they are
 * current; only then is nothing copied. Needs only sh and perl on the host.
 */
final class RemoteInstall {
    static final String HELPER = "runboard-remote.pl";
    static final String WRAPPER = ProcessTreeSnapshot.WRAPPER_SCRIPT;
    private static final byte[] HELPER_BYTES = resource("/dev/runboard/remote/" + HELPER);
    private static final byte[] WRAPPER_BYTES = resource("/dev/runboard/process/" + WRAPPER);
    static final String VERSION = SshCommand.shortHash(new String(HELPER_BYTES, StandardCharsets.ISO_8859_1)
            + "\0" + new String(WRAPPER_BYTES, StandardCharsets.ISO_8859_1));

    private RemoteInstall() {
    }

    /**
     * Installs (or finds current) the scripts on the host and returns their folder's absolute path.
     * Throws {@link InvalidSpecException} with one line naming the host and what to do, or
     * IOException when ssh itself could not be run.
     */
    static String ensure(SshCommand ssh, String clientId) throws IOException {
        return ensure(ssh, clientId, false).dir();
    }

    /** The helper's folder, and the answer of its {@code room} request when it was asked in the same call (else null). */
    record Checked(String dir, String room) {
    }

    /**
     * As {@link #ensure(SshCommand, String)}; with {@code room}, a current helper is also asked in the
     * same ssh call whether a session's files fit: a start then costs one call fewer before its
     * command runs (each is an ssh channel and a perl start on the host).
     */
    static Checked ensure(SshCommand ssh, String clientId, boolean room) throws IOException {
        String dir = "d=\"$HOME/.cache/runboard-remote/" + clientId + "\"; ";
        SshCommand.Result check = ssh.run(dir
                + "command -v perl >/dev/null 2>&1 || { echo 'error perl: perl not found'; exit 3; }; "
                + "if [ \"$(cat \"$d/version\" 2>/dev/null)\" = " + VERSION + " ]; then echo \"ok $d\"; "
                + (room ? "perl \"$d/" + HELPER + "\" \"$d\" room; exit 0; " : "")
                + "else echo \"need $d\"; fi",
                null);
        String answer = answer(ssh, check);
        String path = answer.substring(answer.indexOf(' ') + 1);
        if (answer.startsWith("ok ")) {
            String[] lines = check.text().strip().split("\n");
            return new Checked(path, room ? (lines.length > 1 ? lines[1].strip() : "") : null);
        }
        upload(ssh, dir, HELPER, HELPER_BYTES);
        upload(ssh, dir, WRAPPER, WRAPPER_BYTES);
        answer(ssh, ssh.run(dir + "printf %s " + VERSION + " > \"$d/version\" && echo ok"
                + " || { echo \"error disk: cannot write $d/version\"; exit 3; }", null));
        return new Checked(path, null);
    }

    private static void upload(SshCommand ssh, String dir, String name, byte[] content) throws IOException {
        answer(ssh, ssh.run(dir + "umask 077 && mkdir -p \"$d\" && chmod 700 \"$d\" && cat > \"$d/" + name + ".tmp\""
                + " && mv \"$d/" + name + ".tmp\" \"$d/" + name + "\" && echo ok"
                + " || { rm -f \"$d/" + name + ".tmp\"; echo \"error disk: cannot write $d/" + name + "\"; exit 3; }",
                content));
    }

    /** The call's first line when it succeeded; else the one-line problem. */
    static String answer(SshCommand ssh, SshCommand.Result r) {
        if (r.sshFailed()) {
            throw new InvalidSpecException("host", SshProblem.ofSsh(ssh.host(), r.err()));
        }
        String text = r.text().strip();
        String first = text.contains("\n") ? text.substring(0, text.indexOf('\n')) : text;
        if (first.startsWith("error ")) {
            throw new InvalidSpecException("host", SshProblem.ofHelper(ssh.host(), first));
        }
        if (r.exit() != 0 || first.isEmpty()) {
            throw new InvalidSpecException("host", "host " + ssh.host() + ": the remote command failed (exit " + r.exit()
                    + (r.err().isEmpty() ? "" : ": " + r.err().lines().reduce((a, b) -> b).orElse("")) + ")");
        }
        return first;
    }

    private static byte[] resource(String name) {
        try (InputStream in = RemoteInstall.class.getResourceAsStream(name)) {
            return in.readAllBytes();
        } catch (IOException | NullPointerException e) {
            throw new IllegalStateException("runboard is missing its resource " + name, e);
        }
    }
}
