package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.runboard.store.Json;
import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The client/supervisor protocol: one JSON object per line each way over the Unix socket. A
 * request is {@code {"v": VERSION, "op": NAME, ...}} ({@link Requests}); a reply is {@code {"v": VERSION,
 * "ok": true, ...its record's fields}} or {@code {"v": VERSION, "ok": false, "error": TEXT, "usage": BOOL}}
 * ({@link Refusal}; {@code usage}: the request was wrong, not the supervisor). This class writes both
 * envelopes and reads a reply back into its record. Each side refuses a message of another version and
 * says so.
 */
final class Protocol {
    /**
     * Bumped whenever a request or reply changes shape (2: up, down, queue; start's queue and after; host;
     * 3: heartbeat lines before a reply that takes longer than a second; 4: cli runs any command line for
     * bin/runboard's thin client, its bytes in hex and its output streamed in frames, docs/PROTOCOL.md).
     */
    static final int VERSION = 4;
    /** A request larger than this is refused: a spec with its env fits easily, a flood of stdin is split. */
    static final int MAX_LINE = 4 << 20;

    /**
     * One line; a character outside the BMP as its UTF-8 bytes, as the Perl clients write it, not as two
     * escapes. Requests and replies alike are written through it ({@link #envelope}).
     */
    private static final ObjectWriter FIELDS = Json.mapper().writer().without(SerializationFeature.INDENT_OUTPUT)
            .with(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8);

    private Protocol() {
    }

    /**
     * What a request is answered with ({@link Request#answer}): a record whose components are the reply's
     * fields, snake_case on the wire, a null one left out. Each request's is in its own file ({@code
     * KillRequest.Reply}), or one of the few shared shapes ({@link Done}, {@link StartRequest.Reply}); the
     * protocol's schema describes each as {@code reply_OP}. The supervisor writes it with {@link #line(Reply)},
     * the client reads it back into the same record ({@link #decode}).
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    @JsonInclude(JsonInclude.Include.NON_NULL)
    interface Reply {
    }

    /** The reply of a request that has nothing to say but that it was done (stdin, close_stdin, queue, stop). */
    record Done() implements Reply {
    }

    /**
     * A refused or failed request, {@code "ok": false}: {@code error} is one line for the user, {@code usage} says
     * the request was wrong (an unknown id, a bad option) rather than the supervisor.
     */
    record Refusal(String error, boolean usage) implements Reply {
    }

    static void send(OutputStream out, Reply reply) throws IOException {
        out.write(line(reply));
        out.flush();
    }

    /** The reply as one line, its newline included: {@code {"v":VERSION,"ok":BOOL,...its fields}}. */
    static byte[] line(Reply reply) {
        return envelope("{\"v\":" + VERSION + ",\"ok\":" + !(reply instanceof Refusal), reply);
    }

    /**
     * {@code head} (an object's opening and its first fields, as ASCII), then {@code record}'s fields in its
     * order, then the newline: the one way a message of this protocol is written, requests and replies.
     */
    static byte[] envelope(String head, Object record) {
        byte[] fields;
        try {
            fields = FIELDS.writeValueAsBytes(record);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + record.getClass().getSimpleName(), e);
        }
        ByteArrayOutputStream line = new ByteArrayOutputStream(fields.length + 32);
        line.writeBytes(head.getBytes(StandardCharsets.US_ASCII));
        if (fields.length > 2) { // more than {}
            line.write(',');
            line.write(fields, 1, fields.length - 1);
        } else {
            line.write('}');
        }
        line.write('\n');
        return line.toByteArray();
    }

    /** What a reply line says before its fields: its version (-1: none) and whether it is ok. */
    record Envelope(int version, boolean ok) {
    }

    /**
     * The reply line's envelope, read from its first fields ({@link #line(Reply)} writes {@code v} and {@code ok}
     * first) without making anything of the rest.
     */
    static Envelope envelope(String line) throws IOException {
        int version = -1;
        boolean ok = false;
        try (JsonParser p = Json.mapper().getFactory().createParser(line)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return new Envelope(version, ok);
            }
            for (int seen = 0; seen < 2 && p.nextToken() == JsonToken.FIELD_NAME; ) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("v")) {
                    version = p.getValueAsInt(-1);
                    seen++;
                } else if (name.equals("ok")) {
                    ok = value == JsonToken.VALUE_TRUE;
                    seen++;
                } else {
                    p.skipChildren();
                }
            }
        }
        return new Envelope(version, ok);
    }

    /**
     * A reply line read into its record: {@code type} when it says ok, its {@link Refusal} else (the caller has
     * checked its version). Read from the line, not from a tree of it: a list reply of 10,000 snapshots (12.9 MB)
     * read into its record through a tree took four times as long as the tree alone; from the line it takes as
     * long (docs/BENCHMARKS.md §20). Fields the record lacks are ignored, as {@code v} and {@code ok} are.
     */
    static Reply decode(String line, boolean ok, Class<? extends Reply> type) throws IOException {
        Class<? extends Reply> as = ok ? type : Refusal.class;
        try {
            return Json.readerFor(as).readValue(line);
        } catch (JsonProcessingException e) {
            throw new IOException("the supervisor's reply is not a " + as.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /**
     * The next message, or null at end of stream. The limit holds while it is read: a line longer than
     * {@link #MAX_LINE} is refused as soon as it is, never buffered whole (a 100 MB line once grew the
     * supervisor by 230 MB that it never gave back). The line is parsed where it was read: a String
     * of it, and the copies Jackson made of a long text read through a Reader, took three times as
     * much again (three clients sending 4 M characters of CJK text at once, five times over, left the
     * supervisor 50-80 MB larger; 20-35 MB so).
     */
    static JsonNode receive(BufferedReader in) throws IOException {
        char[] line = new char[256];
        int length = 0;
        for (int c; (c = in.read()) != '\n'; ) {
            if (c < 0) {
                if (length == 0) {
                    return null;
                }
                break;
            }
            if (length == MAX_LINE) {
                throw new IOException("a message longer than the protocol allows (" + MAX_LINE + " characters)");
            }
            if (length == line.length) {
                line = java.util.Arrays.copyOf(line, Math.min(MAX_LINE, 2 * length));
            }
            line[length++] = (char) c;
        }
        if (length > 0 && line[length - 1] == '\r') {
            length--;
        }
        try (JsonParser parser = Json.mapper().getFactory().createParser(line, 0, length)) {
            JsonNode message = Json.mapper().readTree(parser);
            return message == null ? MissingNode.getInstance() : message; // an empty line, as readTree(String) reads it
        }
    }

    static BufferedReader reader(SocketChannel ch) {
        // Through a channel that is not a SelectableChannel: Channels' stream of one holds the channel's blocking lock
        // while it reads, and its writer takes the same lock, so a read waiting for a client's next line (a thin
        // client's relayed input, RelayedInput) would stop every reply written meanwhile. The socket reads and
        // writes side by side on its own.
        java.nio.channels.ReadableByteChannel reads = new java.nio.channels.ReadableByteChannel() {
            @Override
            public int read(java.nio.ByteBuffer dst) throws java.io.IOException {
                return ch.read(dst);
            }

            @Override
            public boolean isOpen() {
                return ch.isOpen();
            }

            @Override
            public void close() throws java.io.IOException {
                ch.close();
            }
        };
        return new BufferedReader(new InputStreamReader(Channels.newInputStream(reads), StandardCharsets.UTF_8));
    }

    /** The most one write to a socket carries ({@link #writer}). */
    private static final int WRITE_SLICE = 64 << 10;

    /**
     * The connection's output, written {@link #WRITE_SLICE} bytes at a time. The JDK writes a heap
     * array to a socket through a direct buffer as large as the write and keeps that buffer for the
     * thread (jdk.nio.maxCachedBufferSize is unlimited by default): every supervisor thread that had
     * once sent a large reply (a long history's list, an 8 MB refusal) held as much again outside the
     * heap (three such threads: 25 MB) for as long as it lived. Clients write through it too.
     */
    static OutputStream writer(SocketChannel ch) {
        OutputStream out = Channels.newOutputStream(ch);
        return new java.io.FilterOutputStream(out) {
            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                for (int at = 0; at < len; at += WRITE_SLICE) {
                    out.write(b, off + at, Math.min(WRITE_SLICE, len - at));
                }
            }
        };
    }

    /** Null when the message speaks this version; else one line saying which versions met. */
    static String versionProblem(JsonNode message, String peer) {
        int v = message.path("v").asInt(-1);
        return v == VERSION ? null : mismatch(v, peer);
    }

    /** One line saying which versions met and what to do; Jackson-free. */
    static String mismatch(int theirs, String peer) {
        return "the " + peer + " speaks protocol version " + theirs + ", this runboard speaks " + VERSION
                + " (two runboard versions on one data dir): run 'runboard supervisor stop' (its sessions keep running,"
                + " and the next command starts this version's supervisor)";
    }

    /** {@code stop} is served whatever version asks it: the one request every runboard must understand of another. */
    static final String STOP = "stop";
}
