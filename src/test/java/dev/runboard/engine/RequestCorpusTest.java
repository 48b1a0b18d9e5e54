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
                    String op = Json.mapper().readTree(line).path("op").asText();
                    lines.put(op, line);
                    String reply = switch (op) {
                        case "cli" -> "{\"v\":4,\"ok\":true,\"exit\":0}";
                        case "adopt_exec" -> {
                            if (interrupt) {
                                new ProcessBuilder("kill", "-INT", String.valueOf(client.pid())).start().waitFor();
                            }
                            yield "{\"v\":4,\"ok\":true,\"id\":\"x\",\"status\":\"running\"}";
                        }
                        case "exec_exited" -> "{\"v\":4,\"ok\":true,\"exit\":0,\"snapshot_hex\":\"7b7d\"}";
                        default -> "{\"v\":4,\"ok\":true}";
                    };
                    try {
                        ch.write(ByteBuffer.wrap((reply + "\n").getBytes(StandardCharsets.US_ASCII)));
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
