package dev.runboard.engine;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.runboard.session.SessionSnapshot;
import dev.runboard.session.SessionStatus;
import dev.runboard.store.Json;

/**
 * A session's snapshot as a reply carries it ({@code show}, {@code list}, {@code wait}): the snapshot's JSON
 * (the Contract's fields, named by store.SessionMixIns), with a running session's {@link LiveUsage} as its
 * {@code usage}. It stays that JSON on the client's side: what the client prints ({@code show}, {@code list
 * --json}) is the supervisor's text, field for field, and a {@link SessionSnapshot} cannot be made again from it
 * (its output is a preview of bytes the JSON shows as text). What clients read of it they read here.
 */
@com.fasterxml.jackson.databind.annotation.JsonDeserialize(using = ShownSnapshot.Reader.class)
public final class ShownSnapshot {
    /**
     * Reads the snapshot as a tree, once, from the reply's line: with Jackson's delegating creator instead, the list
     * reply of 10,000 snapshots took 2.2 times as long as a tree of it, with this reader 1.5 times (the same runs,
     * the record read second each round; alternated, docs/BENCHMARKS.md §20, the two are level).
     */
    static final class Reader extends com.fasterxml.jackson.databind.deser.std.StdDeserializer<ShownSnapshot> {
        Reader() {
            super(ShownSnapshot.class);
        }

        @Override
        public ShownSnapshot deserialize(com.fasterxml.jackson.core.JsonParser p,
                                         com.fasterxml.jackson.databind.DeserializationContext context) throws java.io.IOException {
            JsonNode json = context.readTree(p);
            if (!json.isObject()) {
                throw com.fasterxml.jackson.databind.exc.MismatchedInputException.from(p, ShownSnapshot.class,
                        "a snapshot is an object, not " + json.getNodeType());
            }
            return new ShownSnapshot((ObjectNode) json);
        }
    }

    private final ObjectNode json;

    ShownSnapshot(ObjectNode json) {
        this.json = json;
    }

    /** The snapshot with {@code usage} (null: none, the session has ended or was not sampled yet). */
    static ShownSnapshot of(SessionSnapshot snapshot, LiveUsage usage) {
        ObjectNode json = Json.mapper().valueToTree(snapshot);
        if (usage != null) {
            json.set("usage", Json.mapper().valueToTree(usage));
        }
        return new ShownSnapshot(json);
    }

    /** The snapshot as JSON, as the supervisor wrote it: what {@code show} and {@code list --json} print. */
    @JsonValue
    public ObjectNode json() {
        return json;
    }

    public SessionStatus status() {
        return SessionStatus.fromWord(json.path("status").asText());
    }

    public String sessionId() {
        return json.path("session_id").asText();
    }

    /** The leader's pid (the wrapper's); null before it started, and for a Slurm job. */
    public Long pid() {
        JsonNode pid = json.get("pid");
        return pid == null || pid.isNull() ? null : pid.asLong();
    }

    /** Null while it runs, and when it ended without one (killed by a signal, never started). */
    public Integer exitCode() {
        JsonNode code = json.get("exit_code");
        return code == null || code.isNull() ? null : code.asInt();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShownSnapshot other && json.equals(other.json);
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return json.toString();
    }
}
