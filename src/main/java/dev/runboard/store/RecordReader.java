package dev.runboard.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Turns the bytes of a {@code session.json} into a {@link SessionRecord} that can be used as it
 * is, or says why not: JSON that does not parse (a {@code JacksonException}) or a record that is
 * wrong ({@link CorruptRecordException}) is corrupt; a record of a newer schema
 * ({@link NewerRecordException}) is not ours to read. Older schemas are migrated here, field by
 * field, never refused for being old.
 */
final class RecordReader {
    private RecordReader() {
    }

    /** The record read from the folder {@code folder}; its id must be that name. */
    static SessionRecord read(byte[] bytes, String folder) throws IOException {
        if (startsWith(bytes, CURRENT)) {
            // Written by this schema (its first field says so): bound straight from the bytes, without
            // the tree the schema check needs otherwise (a quarter less CPU for a history of 10,000).
            return Json.readerFor(SessionRecord.class).<SessionRecord>readValue(bytes).check(folder);
        }
        JsonNode tree = Json.mapper().readTree(bytes);
        if (!(tree instanceof ObjectNode object)) {
            throw new CorruptRecordException("it is not a JSON object");
        }
        int schema = schemaOf(object);
        if (schema > SessionRecord.SCHEMA) {
            throw new NewerRecordException("it was written by a newer runboard (schema " + schema + "; this one reads up to "
                    + SessionRecord.SCHEMA + ")");
        }
        SessionRecord record = Json.mapper().treeToValue(object, SessionRecord.class);
        if (schema == SessionRecord.SCHEMA_0_1) {
            record = fromSchema1(record);
        }
        return record.check(folder);
    }

    /**
     * As {@link #read}, without the preview ({@link SessionRecord#withoutPreview}): a record of this schema is
     * bound with its {@code output_head} and {@code output_tail} skipped, never made strings.
     */
    static SessionRecord readWithoutPreview(byte[] bytes, String folder) throws IOException {
        if (startsWith(bytes, CURRENT)) {
            return PreviewSkipped.READER.<SessionRecord>readValue(bytes).withoutPreview().check(folder);
        }
        return read(bytes, folder).withoutPreview();
    }

    /** A record's reader that passes over the preview's two base64 fields (Jackson skips an ignored string unread). */
    @com.fasterxml.jackson.annotation.JsonIgnoreProperties({"output_head", "output_tail"})
    private abstract static class PreviewSkipped {
        static final com.fasterxml.jackson.databind.ObjectReader READER = Json.mapper().copy()
                .addMixIn(SessionRecord.class, PreviewSkipped.class).readerFor(SessionRecord.class);
    }

    /** How every record of the current schema begins (Json's indented output). */
    private static final byte[] CURRENT = ("{\n  \"schema\" : " + SessionRecord.SCHEMA + ",\n")
            .getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private static boolean startsWith(byte[] bytes, byte[] prefix) {
        return bytes.length >= prefix.length && java.util.Arrays.equals(bytes, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** No {@code schema} field: runboard 0.1's layout. */
    private static int schemaOf(ObjectNode record) throws CorruptRecordException {
        JsonNode schema = record.get("schema");
        if (schema == null) {
            return SessionRecord.SCHEMA_0_1;
        }
        if (!schema.canConvertToExactIntegral() || !schema.canConvertToInt() || schema.asInt() < 1) {
            throw new CorruptRecordException("schema " + schema + " is not a schema number");
        }
        return schema.asInt();
    }

    /**
     * Schema 1 (runboard 0.1) has the layout of schema 2 without the {@code schema} field; its
     * limits could exceed today's ranges (the CLI and the dialog did not bound them), so they are
     * brought into range. A record without a spec is left for {@link SessionRecord#check} to refuse.
     */
    private static SessionRecord fromSchema1(SessionRecord r) {
        return r.withSchema(SessionRecord.SCHEMA, r.spec() == null ? null : r.spec().clampedToRanges());
    }
}
