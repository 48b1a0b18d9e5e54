package dev.runboard.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.runboard.session.RawText;
import dev.runboard.store.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.time.Duration;
import dev.runboard.process.Await;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One corpus of requests (request-corpus.json) through both clients' code. Each request the Perl clients
 * send is made by the real scripts, run by perl with the corpus's bytes as their arguments, environment
 * and folder, against a listener that records the lines and answers as a supervisor would; the Java
 * records make the same requests ({@link Requests#encode}); the lines must be the same bytes, each must be
 * valid against the protocol's schema, and each must decode into the record the Java side made. Every
 * other request is a canonical line there: decoded and encoded again it gives the same bytes, and it is valid.
 */
class RequestCorpusTest {
    private static final HexFormat HEX = HexFormat.of();
    /** A pid no process has (pid_max is at most 2^22): the exec client finds no wrapper to wait for. */
    private static final long NO_WRAPPER = 4194303;

    @TempDir
    Path tmp;

    private static JsonNode corpus() throws IOException {
        try (InputStream in = RequestCorpusTest.class.getResourceAsStream("request-corpus.json")) {
            return Json.mapper().readTree(in);
        }
    }

    /** Corpus bytes: a hex string, or {"hex": H, "times": N}. */
    private static byte[] bytes(JsonNode n) {
        if (n.isTextual()) {
            return HEX.parseHex(n.asText());
        }
        byte[] unit = HEX.parseHex(n.path("hex").asText());
        int times = n.path("times").asInt();
        byte[] out = new byte[unit.length * times];
        for (int i = 0; i < times; i++) {
            System.arraycopy(unit, 0, out, i * unit.length, unit.length);
        }
        return out;
    }

    private static List<byte[]> words(JsonNode array) {
        List<byte[]> out = new ArrayList<>();
        array.forEach(w -> out.add(bytes(w)));
        return out;
    }

    @Test
    void thePerlClientsAndTheJavaRecordsPutTheSameBytesOnTheWire() throws Exception {
        ProtocolSchema schema = ProtocolSchema.load();
        Path data = tmp.resolve("data");
        ClientScripts.install(data);
        int checked = 0;
        for (JsonNode entry : corpus().path("clients")) {
            String name = entry.path("name").asText();
            Map<String, byte[]> perl;
            Map<String, Request> java = new LinkedHashMap<>();
            if (entry.path("client").asText().equals("cli")) {
                byte[] folder = concat(tmp.toString().getBytes(StandardCharsets.UTF_8), new byte[] {'/'}, bytes(entry.path("cwd")));
                Map<byte[], byte[]> env = new LinkedHashMap<>();
                entry.path("env").fields().forEachRemaining(e -> env.put(HEX.parseHex(e.getKey()), bytes(e.getValue())));
                List<byte[]> argv = words(entry.path("argv"));
                perl = new Listener(tmp).run(entry, data, folder, argv, env);
                java.put("cli", CliRequest.of(argv, env, folder, false));
            } else {
                String id = entry.path("id").asText();
                List<byte[]> argv = words(entry.path("argv"));
                perl = new Listener(tmp).run(entry, data, null, argv, null);
                java.put("adopt_exec", new AdoptExecRequest(id, NO_WRAPPER, entry.path("launched_ms").asLong(),
                        argv.stream().map(RawText::decode).toList()));
                if (entry.path("interrupt").asBoolean()) {
                    java.put("kill", new KillRequest(id, null, null));
                }
                java.put("exec_exited", new ExecExitedRequest(id));
            }
            assertEquals(java.keySet(), perl.keySet(), name + ": the requests the Perl client sent");
            for (Map.Entry<String, Request> r : java.entrySet()) {
                byte[] fromJava = Requests.encode(r.getValue());
                byte[] fromPerl = perl.get(r.getKey());
                assertEquals(shown(fromJava), shown(fromPerl), name + ": " + r.getKey() + " from Java and from Perl");
                JsonNode line = Json.mapper().readTree(fromPerl);
                assertEquals(List.of(), schema.problems(line), name + ": " + r.getKey() + " against the schema");
                assertEquals(r.getValue(), Requests.decode(line), name + ": what the supervisor decodes");
                checked++;
            }
        }
        assertTrue(checked >= 8, "the corpus was read: " + checked);
    }

    @Test
    void everyOtherRequestIsItsCanonicalLineAndValid() throws Exception {
        ProtocolSchema schema = ProtocolSchema.load();
        java.util.Set<String> ops = new java.util.TreeSet<>();
        for (JsonNode line : corpus().path("lines")) {
            byte[] canonical = (Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(line) + "\n")
                    .getBytes(StandardCharsets.UTF_8);
            Request decoded = Requests.decode(line);
            assertEquals(shown(canonical), shown(Requests.encode(decoded)), "encoded again");
            assertEquals(List.of(), schema.problems(line), line.toString());
            ops.add(line.path("op").asText());
        }
        ops.addAll(List.of("cli", "adopt_exec", "exec_exited"));
        assertEquals(new java.util.TreeSet<>(Requests.BY_OP.keySet()), ops, "the corpus has every request");
    }

    /**
     * A real supervisor answers the corpus's requests, each valid against the schema: every line it sends (the
     * reply, or a cli request's frames and its exit) must be the request's {@code reply_OP}, a heartbeat or a
     * refusal, so a handler that adds a field the schema lacks fails here. The corpus's ids, pids and files are
     * made real ones (sessions started by its own start lines, a workspace file), so that each request is
     * answered as it succeeds, not only refused.
     */
    @Test
    void aSupervisorsRepliesToTheCorpusAreValid() throws Exception {
        ProtocolSchema schema = ProtocolSchema.load();
        Map<String, List<JsonNode>> byOp = new LinkedHashMap<>();
        corpus().path("lines").forEach(l -> byOp.computeIfAbsent(l.path("op").asText(), k -> new ArrayList<>()).add(l));
        Path project = Files.createDirectories(tmp.resolve("a b"));
        Path file = project.resolve("runboard.yaml");
        Files.writeString(file, "commands:\n  web: {command: \"exec sleep 600\", shell: /bin/sh}\n"
                + "  db: {command: \"true\", shell: /bin/sh}\n");
        try (SupervisorFixture fx = new SupervisorFixture(tmp.resolve("data"))) {
            LiveReplies live = new LiveReplies(fx.client().paths(), schema);
            live.send(byOp.get("status").get(0));
            List<JsonNode> starts = new ArrayList<>();
            for (JsonNode start : byOp.get("start")) { // the corpus's specs are shapes: no cwd, a preview of 0 bytes
                JsonNode runnable = start.deepCopy();
                ((com.fasterxml.jackson.databind.node.ObjectNode) runnable.path("spec")).put("preview_bytes", 65536)
                        .put("cwd", tmp.toString());
                starts.add(runnable);
            }
            String sleeping = live.started(starts.get(0));
            String signalled = live.started(starts.get(0));
            String killed = live.started(starts.get(0));
            String interrupted = live.started(starts.get(0));
            // Queued after the first: skipped once that one is killed.
            JsonNode after = starts.get(1).deepCopy();
            ((com.fasterxml.jackson.databind.node.ArrayNode) after.path("after")).removeAll().add(sleeping + ":succeeded").add(sleeping);
            String waiting = live.started(after);
            JsonNode noCwd = after.deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) noCwd.path("spec")).putNull("cwd");
            JsonNode refused = live.send(noCwd);
            assertEquals("start needs the spec's cwd (an absolute folder)", refused.path("error").asText(), refused.toString());
            assertTrue(refused.path("usage").asBoolean(), "the request's fault: " + refused);

            for (JsonNode l : byOp.get("list")) {
                live.send(l);
            }
            live.send(byOp.get("list_rows").get(0));
            live.send(with(byOp.get("resolve").get(0), "id", sleeping.substring(0, 20)));
            live.send(with(byOp.get("show").get(0), "id", sleeping));
            live.send(byOp.get("usage").get(0));
            JsonNode usage = with(byOp.get("usage").get(1), "ids", Json.mapper().valueToTree(List.of(sleeping, waiting)));
            Await.until(Duration.ofSeconds(60), "the supervisor's monitor to sample " + sleeping,
                    () -> live.sendQuietly(usage).path("usage").has(sleeping));
            live.send(with(byOp.get("show").get(0), "id", sleeping)); // with its usage now
            for (JsonNode l : byOp.get("stdin")) {
                live.send(with(l, "id", sleeping));
            }
            live.send(with(byOp.get("close_stdin").get(0), "id", sleeping));
            live.send(with(byOp.get("signal").get(0), "id", sleeping));
            long pid = fx.client().show(signalled).pid();
            live.send(with(with(byOp.get("signal_process").get(0), "id", signalled), "pid", Json.mapper().valueToTree(pid)));
            List<JsonNode> kills = byOp.get("kill");
            live.send(with(kills.get(0), "id", sleeping));
            live.send(with(kills.get(1), "id", killed));
            live.send(with(kills.get(2), "id", interrupted));
            live.send(with(byOp.get("wait").get(0), "id", waiting));
            live.send(with(byOp.get("remove").get(0), "id", waiting));

            for (JsonNode l : byOp.get("up")) {
                live.send(with(l, "file", file.toString()));
            }
            List<JsonNode> downs = byOp.get("down");
            live.send(with(downs.get(1), "file", file.toString()));
            live.send(with(downs.get(0), "file", file.toString()));
            for (JsonNode l : byOp.get("queue")) {
                live.send(l);
            }
            live.send(with(byOp.get("show").get(0), "id", "29991231-000000-ffffff")); // refused
            JsonNode plainList = corpus().path("clients").get(0);
            live.send(Json.mapper().readTree(Requests.encode(CliRequest.of(words(plainList.path("argv")), Map.of(),
                    tmp.toString().getBytes(StandardCharsets.UTF_8), false))));
            JsonNode exec = null;
            for (JsonNode c : corpus().path("clients")) {
                exec = exec == null && c.path("client").asText().equals("exec") ? c : exec;
            }
            live.send(Json.mapper().readTree(Requests.encode(new AdoptExecRequest(exec.path("id").asText(), NO_WRAPPER,
                    exec.path("launched_ms").asLong(), List.of("--", "true"))))); // refused: no wrapper
            live.send(Json.mapper().readTree(Requests.encode(new ExecExitedRequest(exec.path("id").asText())))); // refused

            assertEquals(List.of(), live.problems, "the supervisor's replies against the schema");
            java.util.Set<String> answered = new java.util.TreeSet<>(Requests.BY_OP.keySet());
            answered.removeAll(List.of("stop", "adopt_exec", "exec_exited"));
            assertEquals(answered, new java.util.TreeSet<>(live.succeeded), "the requests answered with their reply, not refused");
            live.send(byOp.get("stop").get(0));
            assertTrue(live.succeeded.contains("stop"), "stop answered");
        }
    }

    /** {@code line} with {@code field} set to {@code value}. */
    private static JsonNode with(JsonNode line, String field, Object value) {
        com.fasterxml.jackson.databind.node.ObjectNode copy = line.deepCopy();
        copy.set(field, value instanceof JsonNode n ? n : Json.mapper().valueToTree(value));
        return copy;
    }

    /** Requests sent to a real supervisor, one connection each, and every line of their replies checked against the schema. */
    private static final class LiveReplies {
        private final SupervisorPaths paths;
        private final ProtocolSchema schema;
        final List<String> problems = new ArrayList<>();
        final List<String> succeeded = new ArrayList<>();

        LiveReplies(SupervisorPaths paths, ProtocolSchema schema) {
            this.paths = paths;
            this.schema = schema;
        }

        /** The reply's last line; each line it sent is checked, and the op noted when it was answered ok. */
        JsonNode send(JsonNode request) throws IOException {
            String op = request.path("op").asText();
            JsonNode last = exchange(request);
            if (last.path("ok").asBoolean()) {
                succeeded.add(op);
            }
            return last;
        }

        /** The id of the session a start request started. */
        String started(JsonNode start) throws IOException {
            JsonNode reply = send(start);
            assertTrue(reply.path("ok").asBoolean(), start + " -> " + reply);
            return reply.path("id").asText();
        }

        /** As {@link #send}, for a request asked again until its answer is what a test waits for. */
        JsonNode sendQuietly(JsonNode request) {
            try {
                return send(request);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        private JsonNode exchange(JsonNode request) throws IOException {
            String op = request.path("op").asText();
            try (SocketChannel ch = SupervisorSocket.connectOrStart(paths)) {
                java.io.OutputStream out = Protocol.writer(ch);
                out.write((Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT).writeValueAsString(request) + "\n")
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
                ReplyReader in = new ReplyReader(ch, paths, Duration.ofSeconds(60));
                for (String line; (line = in.next()) != null; ) {
                    JsonNode reply = Json.mapper().readTree(line);
                    for (String p : schema.replyProblems(op, reply)) {
                        problems.add(op + ": " + p + " in " + shown(line.getBytes(StandardCharsets.UTF_8)));
                    }
                    if (reply.has("ok")) {
                        return reply;
                    }
                }
                throw new IOException("the supervisor closed the connection without answering " + op);
            }
        }
    }

    /** A line as text, long ones cut in the middle (a failure names the difference, not 3 MB). */
    private static String shown(byte[] line) {
        String text = new String(line, StandardCharsets.ISO_8859_1);
        return text.length() <= 4000 ? text : text.substring(0, 2000) + "...[" + text.length() + " bytes, hash "
                + java.util.Arrays.hashCode(line) + "]..." + text.substring(text.length() - 2000);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /**
     * A stand-in supervisor on a Unix socket: records each request line by its op and answers as the real
     * one would (a cli call's exit code; adopt_exec's session; exec_exited's snapshot), sending the exec client
     * SIGINT before it answers adopt_exec when the entry asks for a Ctrl-C.
     */
    private static final class Listener {
        private final Path socket;
        private final Map<String, byte[]> lines = new java.util.concurrent.ConcurrentHashMap<>();
        private final ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        private volatile Process client;
        private final ConcurrentLinkedQueue<Thread> connections = new ConcurrentLinkedQueue<>();
        /** The test's own last connection's line, after every connection of the client's. */
        private static final byte[] LAST = "corpus: last connection\n".getBytes(StandardCharsets.UTF_8);
        private final java.util.concurrent.CountDownLatch taken = new java.util.concurrent.CountDownLatch(1);

        Listener(Path dir) {
            this.socket = dir.resolve("s.sock");
        }

        Map<String, byte[]> run(JsonNode entry, Path data, byte[] folder, List<byte[]> argv, Map<byte[], byte[]> env)
                throws Exception {
            Files.deleteIfExists(socket);
            try (ServerSocketChannel server = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
                server.bind(UnixDomainSocketAddress.of(socket));
                Thread acceptor = new Thread(() -> accept(server, entry.path("interrupt").asBoolean()), "corpus-listener");
                acceptor.setDaemon(true);
                acceptor.start();
                client = start(entry, data, folder, argv, env);
                String err = new String(client.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the client ended");
                int expected = entry.path("interrupt").asBoolean() ? 130 : 0;
                assertEquals(expected, client.exitValue(), entry.path("name").asText() + ": " + err);
                // Every connection the client made waits in the listen queue, in order, and the last (its kill, whose
                // answer it does not wait for) may not be taken yet on a loaded machine: closing the server now lost it
                // once in CI. One more connection from here, once taken, means the listener has taken them all.
                try (SocketChannel last = SocketChannel.open(UnixDomainSocketAddress.of(socket))) {
                    last.write(ByteBuffer.wrap(LAST));
                }
                assertTrue(taken.await(30, TimeUnit.SECONDS), "the listener took every connection the client made");
            }
            for (Thread t : connections) {
                t.join(TimeUnit.SECONDS.toMillis(30)); // each ends at its connection's end: the client's exit
            }
            assertTrue(failures.isEmpty(), failures.toString());
            return new java.util.TreeMap<>(lines);
        }

        /**
         * The client, exec'd by a perl trampoline that sets the corpus's exact bytes (Java passes only text):
         * its folder (made here), its environment (nothing else), its arguments.
         */
        private Process start(JsonNode entry, Path data, byte[] folder, List<byte[]> argv, Map<byte[], byte[]> env)
                throws IOException {
            List<String> command = new ArrayList<>(List.of("perl", "-e", TRAMPOLINE));
            boolean cli = entry.path("client").asText().equals("cli");
            command.add(folder == null ? "" : HEX.formatHex(folder));
            command.add(HEX.formatHex(String.valueOf(env == null ? 0 : env.size()).getBytes(StandardCharsets.US_ASCII)));
            if (env != null) {
                env.forEach((k, v) -> command.add(HEX.formatHex(concat(k, new byte[] {'='}, v))));
            }
            List<byte[]> args = new ArrayList<>();
            if (cli) {
                args.add(data.resolve("bin").resolve(ClientScripts.CLIENT).toString().getBytes(StandardCharsets.UTF_8));
                args.addAll(List.of(bytes(socket.toString()), bytes(data.toString()), bytes(String.valueOf(argv.size()))));
                args.addAll(argv);
            } else {
                args.add(Path.of("bin", "runboard-exec.pl").toAbsolutePath().toString().getBytes(StandardCharsets.UTF_8));
                args.addAll(List.of(bytes(socket.toString()), bytes(String.valueOf(NO_WRAPPER)),
                        bytes(entry.path("launched_ms").asText()), bytes(entry.path("id").asText()), bytes(data.toString()),
                        bytes(String.valueOf(argv.size()))));
                args.addAll(argv);
                args.addAll(List.of(bytes("1"), bytes("exec")));
            }
            args.add(bytes("false")); // the JVM a client would hand the call to: here, a failure the test sees
            args.forEach(a -> command.add(HEX.formatHex(a)));
            // Large arguments go through a file: the command line of the trampoline itself would pass ARG_MAX twice.
            Path words = Files.createTempFile(socket.getParent(), "words", ".hex");
            Files.write(words, command.subList(3, command.size()));
            return new ProcessBuilder("perl", "-e", TRAMPOLINE, words.toString())
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        }

        private static byte[] bytes(String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }

        /** Reads FILE: the folder, the count of environment entries, the entries, then the program and its arguments (hex, one a line). */
        private static final String TRAMPOLINE = "open(my $f, '<', $ARGV[0]) or die; chomp(my @w = <$f>); @w = map { pack('H*', $_) } @w;"
                + " my $folder = shift @w; if (length $folder) { mkdir($folder); chdir($folder) or die \"chdir: $!\"; }"
                + " my $n = shift @w; %ENV = (); for (splice(@w, 0, $n)) { my ($k, $v) = /^([^=]*)=(.*)\\z/s; $ENV{$k} = $v; }"
                + " exec { $^X } $^X, @w; die \"exec: $!\";";

        private void accept(ServerSocketChannel server, boolean interrupt) {
            try {
                while (true) {
                    SocketChannel ch = server.accept();
                    Thread t = new Thread(() -> serve(ch, interrupt), "corpus-connection");
                    t.setDaemon(true);
                    connections.add(t);
                    t.start();
                }
            } catch (IOException closed) {
                // the test is over
            }
        }

        private void serve(SocketChannel ch, boolean interrupt) {
            try (ch) {
                InputStream in = new java.io.BufferedInputStream(java.nio.channels.Channels.newInputStream(ch), 1 << 16);
                for (byte[] line; (line = readLine(in)) != null; ) {
                    if (java.util.Arrays.equals(line, LAST)) {
                        taken.countDown();
                        return;
                    }
                    String op = Json.mapper().readTree(line).path("op").asText();
                    lines.put(op, line);
                    // The supervisor's own records and encoder: what the Perl clients parse is what it writes.
                    Protocol.Reply reply = switch (op) {
                        case "cli" -> new CliRequest.Reply(0);
                        case "adopt_exec" -> {
                            if (interrupt) {
                                new ProcessBuilder("kill", "-INT", String.valueOf(client.pid())).start().waitFor();
                            }
                            yield new StartRequest.Reply("x", dev.runboard.session.SessionStatus.RUNNING);
                        }
                        case "exec_exited" -> new ExecExitedRequest.Reply(0, "7b7d");
                        default -> new Protocol.Done();
                    };
                    try {
                        ch.write(ByteBuffer.wrap(Protocol.line(reply)));
                    } catch (IOException gone) {
                        // the exec client does not wait for the answer to its kill: it may have exited
                    }
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
                failures.add(notJson);
            } catch (IOException ended) {
                // the client's end: the exec client exits without reading the answer to its kill (a reset, not a failure)
            } catch (Exception | AssertionError e) {
                failures.add(e);
            }
        }

        private static byte[] readLine(InputStream in) throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b; (b = in.read()) >= 0; ) {
                line.write(b);
                if (b == '\n') {
                    return line.toByteArray();
                }
            }
            return line.size() == 0 ? null : line.toByteArray();
        }
    }
}
