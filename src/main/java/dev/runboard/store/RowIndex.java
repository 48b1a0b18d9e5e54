package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.runboard.session.OutputPreview;
import dev.runboard.session.SessionOutcome;
import dev.runboard.session.SessionStatus;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code rows.index} in the data dir: what a window's table needs of every ended session, in one
 * file, so that opening a history of 10,000 sessions reads one file of their rows rather than
 * 10,000 records with their previews (54 MB of JSON, most of it base64 the table never shows).
 *
 * <p>A row is the session's record without its preview's bytes, plus the preview's sizes and its
 * last line ({@link Row#summary}); the bytes are read back from the record when the session is
 * shown. An ended session's record never changes again (the one writer writes its terminal record
 * last), so a row holds for as long as the session's folder is there; {@code unknown} sessions,
 * which a remote host may still end for real, are never in it. It is a cache: any problem with it
 * (missing, older, cut short, a row that does not check) means reading the records, as without
 * it. The window writes it after reading a history it did not fully cover.
 *
 * <p>The file is the line {@value #MAGIC}, then one row per line as JSON.
 */
public final class RowIndex {
    static final String FILE = "rows.index";
    private static final String MAGIC = "runboard-rows-index 1 schema " + SessionRecord.SCHEMA;

    /** The reader and writer of rows, made on first use. */
    private static final class Codec {
        static final ObjectReader READER = Json.readerFor(Row.class);
        /** Without null fields: they were a quarter of the file, and a missing field reads as null all the same. */
        static final ObjectWriter WRITER = Json.mapper().copy().setDefaultPropertyInclusion(JsonInclude.Include.NON_NULL)
                .writerFor(Row.class).without(SerializationFeature.INDENT_OUTPUT);
    }

    private RowIndex() {
    }

    /** One ended session's row: its record without the preview's bytes, and what the table shows of the preview. */
    public record Row(@JsonProperty("record") SessionRecord record, @JsonProperty("head_bytes") int headBytes,
                      @JsonProperty("tail_bytes") int tailBytes, @JsonProperty("last_line") String lastLine) {

        /** The row of a full (checked) record: the preview's sizes and last line found from its base64, then its bytes let go. */
        static Row of(SessionRecord full) {
            OutputPreview summary = full.previewSummary(() -> OutputPreview.EMPTY);
            return new Row(full.withoutPreview(), Base64Length.of(full.outputHead()), Base64Length.of(full.outputTail()),
                    summary.lastLine());
        }

        public String id() {
            return record.id();
        }

        /** The preview as the row holds it; its bytes come from {@code source} when shown. */
        public OutputPreview summary(OutputPreview.Source source) {
            return OutputPreview.summary(record.outputBytes(), headBytes, tailBytes, record.outputNote(), lastLine, source)
                    .withDropped(record.droppedBytes());
        }

        /** The outcome with {@link #summary} for its preview. */
        public SessionOutcome outcome(OutputPreview.Source source) {
            SessionRecord r = record;
            return new SessionOutcome(r.status(), r.endedAt() == null ? r.startedAt() : r.endedAt(), r.exitCode(), r.signal(),
                    r.reason(), summary(source), r.artifact(), r.artifactError(), r.artifactErrorCode(), r.captureFile());
        }

        /** Whether this row is one the index may keep and is right about, as read from {@code folder}. */
        boolean valid(String folder) {
            try {
                record.check(folder);
            } catch (CorruptRecordException e) {
                return false;
            }
            return settled(record.status()) && headBytes >= 0 && tailBytes >= 0 && lastLine != null
                    && (long) headBytes + tailBytes <= record.outputBytes();
        }
    }

    /** Whether a session's record can no longer change: it ended, and not as {@code unknown}. */
    static boolean settled(SessionStatus status) {
        return status != null && status.isTerminal() && status != SessionStatus.UNKNOWN;
    }

    /** The rows the data dir's index holds, by session id; empty when it has none this runboard can trust. */
    static Map<String, Row> read(Path dataDir) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(dataDir.resolve(FILE));
        } catch (IOException e) {
            return Map.of();
        }
        byte[] magic = (MAGIC + "\n").getBytes(StandardCharsets.US_ASCII);
        if (bytes.length < magic.length || !java.util.Arrays.equals(bytes, 0, magic.length, magic, 0, magic.length)) {
            return Map.of(); // none, or another runboard's layout
        }
        if (bytes[bytes.length - 1] != '\n') {
            return Map.of(); // cut short: every row of a whole file ends its line
        }
        // A few slices, cut at line ends, parsed side by side: one parser per slice, not per row.
        int slices = Math.max(1, Math.min(Runtime.getRuntime().availableProcessors(), (bytes.length - magic.length) / 65_536));
        int[] cuts = new int[slices + 1];
        cuts[0] = magic.length;
        cuts[slices] = bytes.length;
        for (int i = 1; i < slices; i++) {
            int at = Math.max(cuts[i - 1], magic.length + (int) ((long) (bytes.length - magic.length) * i / slices));
            while (at < bytes.length && bytes[at - 1] != '\n') {
                at++;
            }
            cuts[i] = at;
        }
        List<List<Row>> parsed = java.util.stream.IntStream.range(0, slices).parallel()
                .mapToObj(i -> slice(bytes, cuts[i], cuts[i + 1])).toList();
        if (parsed.contains(null)) {
            return Map.of();
        }
        List<Row> rows = new java.util.ArrayList<>();
        parsed.forEach(rows::addAll);
        Map<String, Row> byId = new HashMap<>(rows.size() * 2);
        OwnOutputFiles own = new OwnOutputFiles(new SessionStore(dataDir)); // a row names output files as its record does
        for (Row r : rows) {
            SessionRecord confined = own.confine(r.record());
            byId.put(r.id(), confined == r.record() ? r : new Row(confined, r.headBytes(), r.tailBytes(), r.lastLine()));
        }
        return byId;
    }

    /** The rows of {@code bytes[from, to)}, each checked; null when one of them is not a row this index may hold. */
    private static List<Row> slice(byte[] bytes, int from, int to) {
        List<Row> rows = new java.util.ArrayList<>();
        if (from >= to) {
            return rows;
        }
        try (MappingIterator<Row> it = Codec.READER.readValues(bytes, from, to - from)) {
            while (it.hasNextValue()) {
                Row row = it.nextValue();
                if (row == null || row.record() == null || !row.valid(row.record().id())) {
                    return null;
                }
                rows.add(row);
            }
            return rows;
        } catch (IOException | RuntimeException e) {
            return null; // not rows: the whole index is in doubt
        }
    }

    /** Writes these rows as the data dir's index (atomically, 0600). */
    static void write(Path dataDir, AtomicFiles files, Collection<Row> rows) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + rows.size() * 1024);
        out.write((MAGIC + "\n").getBytes(StandardCharsets.US_ASCII));
        for (Row r : rows) {
            Codec.WRITER.writeValue(out, r); // one line: no indentation, and JSON escapes a string's newlines
            out.write('\n');
        }
        files.write(dataDir.resolve(FILE), out.toByteArray());
    }
}
