package dev.runboard.stack;

import dev.runboard.process.ListenerOwner;
import dev.runboard.session.Session;
import dev.runboard.workspace.ReadyCheck;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URL;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One probe of a command's readiness, the four kinds of the Contract. Each attempt is bounded by
 * the probe's period, so a hung server cannot hold the probing thread.
 */
interface ReadinessProbe {
    /** One attempt: true when the command answers as ready now. */
    boolean passes(Session session, Duration limit);

    /** Something worth an event that the last attempts found (said once), or null. */
    default String takeNote() {
        return null;
    }

    static ReadinessProbe of(ReadyCheck check) {
        if (check.tcp() != null) {
            return new Tcp(check.tcp().strip());
        }
        if (check.http() != null) {
            return new Http(check.http(), null, Map.of());
        }
        if (check.log() != null) {
            return new Log(Pattern.compile(check.log()));
        }
        return new Exec(check.exec());
    }

    /**
     * Whether the listener that answered is the session's own: a connection alone passed against any
     * program holding the port (a second stack's db went ready on the first one's). A listener of the
     * same user that the session's tree does not hold fails the probe; one whose owner cannot be seen
     * passes, and an event says so once.
     */
    final class OwnerCheck {
        private String note;
        private boolean notedOther;
        private boolean notedUnseen;

        boolean ours(Session session, String host, int port) {
            if (session.spec().isRemote() || session.pid() == null) {
                return true; // the port is on another host, or there is no tree to look in
            }
            ListenerOwner.Owner owner = ListenerOwner.of(host, port, session.pid());
            if (owner == ListenerOwner.Owner.OTHER) {
                if (!notedOther) {
                    notedOther = true;
                    note = "port " + port + " is held by another program, not by this command's processes: not ready on it";
                }
                return false;
            }
            if (owner == ListenerOwner.Owner.NOT_SEEN && !notedUnseen) {
                notedUnseen = true;
                note = "the listener on port " + port + " was not seen (another user's, another host's or another network"
                        + " namespace's): ready on the connection alone";
            }
            return true;
        }

        String take() {
            String n = note;
            note = null;
            return n;
        }
    }

    /** A TCP connection to PORT (on localhost) or HOST:PORT is accepted, by a listener of the session's own when that can be seen. */
    final class Tcp implements ReadinessProbe {
        private final String target;
        private final OwnerCheck owner = new OwnerCheck();

        Tcp(String target) {
            this.target = target;
        }

        @Override
        public synchronized boolean passes(Session session, Duration limit) {
            int colon = target.lastIndexOf(':');
            String host = colon < 0 ? "127.0.0.1" : target.substring(0, colon);
            int port = Integer.parseInt(target.substring(colon + 1));
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), (int) Math.max(1, limit.toMillis()));
            } catch (IOException | IllegalArgumentException e) {
                return false;
            }
            return owner.ours(session, host, port);
        }

        @Override
        public synchronized String takeNote() {
            return owner.take();
        }
    }

    /**
     * A GET of the URL answers 2xx (or exactly {@code status} when given), with {@code headers} sent;
     * from a listener of the session's own when that can be seen.
     */
    final class Http implements ReadinessProbe {
        private final String url;
        private final Integer status;
        private final Map<String, String> headers;
        private final OwnerCheck owner = new OwnerCheck();

        Http(String url, Integer status, Map<String, String> headers) {
            this.url = url;
            this.status = status;
            this.headers = headers == null ? Map.of() : headers;
        }

        @Override
        public synchronized boolean passes(Session session, Duration limit) {
            URL u;
            try {
                u = new URL(url);
                HttpURLConnection c = (HttpURLConnection) u.openConnection();
                c.setConnectTimeout((int) Math.max(1, limit.toMillis()));
                c.setReadTimeout((int) Math.max(1, limit.toMillis()));
                c.setInstanceFollowRedirects(true);
                headers.forEach(c::setRequestProperty);
                try {
                    int code = c.getResponseCode();
                    if (status != null ? code != status : code < 200 || code >= 300) {
                        return false;
                    }
                } finally {
                    c.disconnect();
                }
            } catch (IOException | RuntimeException e) {
                return false;
            }
            int port = u.getPort() >= 0 ? u.getPort() : u.getDefaultPort();
            return owner.ours(session, u.getHost(), port);
        }

        @Override
        public synchronized String takeNote() {
            return owner.take();
        }
    }

    /**
     * A line of the output, as written, matches the regex. Reads on from where the last attempt
     * stopped, so a long log is read once; once seen, the command stays ready by this probe (a log
     * line cannot be unsaid).
     */
    final class Log implements ReadinessProbe {
        private final Pattern pattern;
        private long offset;
        private final StringBuilder partial = new StringBuilder();
        private boolean seen;

        Log(Pattern pattern) {
            this.pattern = pattern;
        }

        @Override
        public synchronized boolean passes(Session session, Duration limit) {
            if (seen) {
                return true;
            }
            try (FileChannel ch = dev.runboard.session.OutputFile.open(session.captureFile())) {
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(64 * 1024);
                long start = dev.runboard.session.OutputFile.start(ch);
                if (offset < start) { // max_output dropped what was not read yet
                    offset = start;
                    partial.setLength(0);
                }
                ch.position(offset);
                int n;
                while ((n = ch.read(buf)) > 0) {
                    offset += n;
                    partial.append(new String(buf.array(), 0, n, StandardCharsets.UTF_8));
                    buf.clear();
                    int nl;
                    while ((nl = partial.indexOf("\n")) >= 0) {
                        String line = partial.substring(0, nl);
                        partial.delete(0, nl + 1);
                        if (pattern.matcher(line).find()) {
                            seen = true;
                            return true;
                        }
                    }
                }
                // A line still being written counts too: a prompt such as "ready> " may never end.
                if (pattern.matcher(partial).find()) {
                    seen = true;
                }
                return seen;
            } catch (IOException e) {
                return false;
            }
        }
    }

    /** A shell command, run in the session's folder, exits 0 within the period. */
    record Exec(String command) implements ReadinessProbe {
        @Override
        public boolean passes(Session session, Duration limit) {
            ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD);
            if (session.spec().cwd() != null) {
                pb.directory(session.spec().cwd().toFile());
            }
            pb.environment().putAll(session.spec().env());
            try {
                Process p = pb.start();
                try (InputStream ignored = p.getInputStream()) {
                    if (!p.waitFor(Math.max(1, limit.toMillis()), TimeUnit.MILLISECONDS)) {
                        p.descendants().forEach(ProcessHandle::destroyForcibly);
                        p.destroyForcibly();
                        return false;
                    }
                    return p.exitValue() == 0;
                }
            } catch (IOException e) {
                return false;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    }
}
