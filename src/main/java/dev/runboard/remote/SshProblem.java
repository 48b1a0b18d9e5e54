package dev.runboard.remote;

import java.util.Locale;

/**
 * One line naming the host, what went wrong and what to do, from what ssh or the remote helper
 * said. ssh exits 255 for its own failures; its last stderr lines name them in words that have
 * been stable across OpenSSH releases.
 */
final class SshProblem {
    private SshProblem() {
    }

    /** Why a call to {@code host} failed at the ssh level (exit 255). */
    static String ofSsh(String host, String stderr) {
        String err = stderr == null ? "" : stderr;
        String low = err.toLowerCase(Locale.ROOT);
        String said = lastLine(err);
        if (low.contains("remote host identification has changed") || low.contains("host key verification failed")
                || low.contains("host key for") && low.contains("has changed")) {
            return "host " + host + ": its host key changed or is not known (ssh: " + said + "); if the change is"
                    + " expected, remove the old key with ssh-keygen -R and check with: ssh " + host;
        }
        if (low.contains("permission denied") || low.contains("too many authentication failures")
                || low.contains("no more authentication methods")) {
            return "host " + host + " refused the login (ssh: " + said + "); check that `ssh " + host
                    + "` logs in without a prompt (a key or the agent)";
        }
        if (low.contains("could not resolve") || low.contains("connection refused") || low.contains("timed out")
                || low.contains("no route to host") || low.contains("network is unreachable")
                || low.contains("connection closed") || low.contains("connection reset")) {
            return "host " + host + " is unreachable (ssh: " + said + "); check that it is up and that `ssh " + host
                    + "` works";
        }
        return "host " + host + ": ssh failed (" + (said.isEmpty() ? "no message" : said) + "); check that `ssh "
                + host + "` works";
    }

    /** The helper's own refusal, "error KIND: message". */
    static String ofHelper(String host, String line) {
        String body = line.startsWith("error ") ? line.substring(6) : line;
        String kind = body.contains(":") ? body.substring(0, body.indexOf(':')) : "";
        String message = body.substring(body.indexOf(':') + 1).strip();
        return switch (kind) {
            case "perl" -> "host " + host + " has no perl on PATH; install perl there (runboard needs only sh and perl)";
            case "disk" -> "host " + host + ": its disk is full (" + message + "); free some space there and start again";
            case "cwd" -> "host " + host + ": cannot enter the working directory (" + message + "); pass --cwd with a"
                    + " folder that exists there";
            default -> "host " + host + ": " + message;
        };
    }

    /** ssh's last line without its own "ssh: " prefix: the messages here already say that ssh said it. */
    private static String lastLine(String text) {
        String t = text.strip();
        int nl = t.lastIndexOf('\n');
        String line = (nl < 0 ? t : t.substring(nl + 1)).strip();
        return line.startsWith("ssh: ") ? line.substring(5) : line;
    }
}
