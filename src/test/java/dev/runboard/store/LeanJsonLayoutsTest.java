package dev.runboard.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runboard.session.SessionSnapshot;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link LeanJsonLayouts} says what the class files say, for every record and enum a session's
 * record and snapshot hold: a layout that disagreed would write other JSON than Jackson. When a
 * type changes, {@code ./mvnw -B test -Dtest=LeanJsonLayoutsTest -Drunboard.layouts.write=true}
 * writes the file again.
 */
class LeanJsonLayoutsTest {
    private static final Path SOURCE = Path.of("src/main/java/dev/runboard/store/LeanJsonLayouts.java");

    @Test
    void theLayoutsAreWhatTheClassFilesSay() throws IOException {
        Map<String, String> records = new TreeMap<>();
        Map<String, String> enums = new TreeMap<>();
        Deque<Type> todo = new ArrayDeque<>(java.util.List.of(SessionRecord.class, SessionSnapshot.class));
        Set<Type> seen = new HashSet<>();
        while (!todo.isEmpty()) {
            Type t = todo.poll();
            if (!seen.add(t)) {
                continue;
            }
            if (t instanceof ParameterizedType p) {
                todo.addAll(java.util.List.of(p.getActualTypeArguments()));
            } else if (t instanceof Class<?> c && c.isRecord()) {
                Set<Type> held = new HashSet<>();
                String layout = LeanJson.layoutOf(c, held);
                if (layout != null) {
                    assertTrue(layout.matches("([a-z_A-Z0-9]+=[a-zA-Z0-9_$]+(,|$))*"), c + ": " + layout);
                    records.put(c.getName(), layout);
                    todo.addAll(held);
                }
            } else if (t instanceof Class<?> c && c.isEnum()) {
                String value = LeanJson.enumLayoutOf(c);
                if (value != null) {
                    enums.put(c.getName(), value);
                }
            }
        }
        assertTrue(records.containsKey(SessionRecord.class.getName()), "the record itself is written by this writer: " + records);
        String expected = source(records, enums);
        if (Boolean.getBoolean("runboard.layouts.write")) {
            Files.writeString(SOURCE, expected, StandardCharsets.UTF_8);
        }
        assertEquals(expected, Files.readString(SOURCE, StandardCharsets.UTF_8), "LeanJsonLayouts.java is not what the class files say;"
                + " write it again: ./mvnw -B test -Dtest=LeanJsonLayoutsTest -Drunboard.layouts.write=true");
    }

    private static String source(Map<String, String> records, Map<String, String> enums) {
        return """
                package dev.runboard.store;

                import java.util.Map;

                /**
                 * What {@link LeanJson} would otherwise read from class files at its first write in every JVM, for
                 * a session's record and snapshot and the types they hold: ~30 ms of CPU, an exec's while its
                 * command runs (docs/BENCHMARKS.md §10, round 13). Written by LeanJsonLayoutsTest, which fails when
                 * this differs from what the class files say; do not edit by hand.
                 */
                final class LeanJsonLayouts {
                    /** A record's JSON properties in order, as "json name=accessor" pairs separated by commas. */
                    static final Map<String, String> RECORDS = Map.ofEntries(
                %s);

                    /** An enum's JsonValue method, or "" when its constants are written by name. */
                    static final Map<String, String> ENUMS = Map.ofEntries(
                %s);

                    private LeanJsonLayouts() {
                    }
                }
                """.formatted(entries(records), entries(enums));
    }

    private static String entries(Map<String, String> entries) {
        StringBuilder out = new StringBuilder();
        for (Map.Entry<String, String> e : entries.entrySet()) {
            out.append(out.length() == 0 ? "" : ",\n").append("            Map.entry(\"").append(e.getKey()).append("\",\n")
                    .append("                    \"").append(e.getValue()).append("\")");
        }
        return out.toString();
    }
}
