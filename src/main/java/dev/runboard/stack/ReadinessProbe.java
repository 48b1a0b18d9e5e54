package dev.runboard.stack;

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
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * One probe of a command's readiness, the four kinds of the Contract. Each attempt is bounded by
 * the probe's period, so a hung server cannot hold the probing thread.
 */
interface ReadinessProbe {
    /** One attempt: true when the command answers as ready now. */
    boolean passes(Session session, Duration limit);

    static ReadinessProbe of(ReadyCheck check) {
        if (check.tcp() != null) {
            return new Tcp(check.tcp().strip());
        }
        if (check.http() != null) {
            return new Http(check.http());
        }
        if (check.log() != null) {
            return new Log(Pattern.compile(check.log()));
        }
        return new Exec(check.exec());
    }

    /** A TCP connection to PORT (on localhost) or HOST:PORT is accepted. */
    record Tcp(String target) implements ReadinessProbe {
        @Override
        public boolean passes(Session session, Duration limit) {
            int colon = target.lastIndexOf(':');
            String host = colon < 0 ? "127.0.0.1" : target.substring(0, colon);
            int port = Integer.parseInt(target.substring(colon + 1));
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), (int) Math.max(1, limit.toMillis()));
                return true;
            } catch (IOException | IllegalArgumentException e) {
                return false;
            }
        }
    }

    /** A GET of the URL answers 2xx. */
    record Http(String url) implements ReadinessProbe {
        @Override
        public boolean passes(Session session, Duration limit) {
            try {
                HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
                c.setConnectTimeout((int) Math.max(1, limit.toMillis()));
                c.setReadTimeout((int) Math.max(1, limit.toMillis()));
                c.setInstanceFollowRedirects(true);
                try {
                    int code = c.getResponseCode();
                    return code >= 200 && code < 300;
                } finally {
                    c.disconnect();
                }
            } catch (IOException | RuntimeException e) {
                return false;
            }
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
