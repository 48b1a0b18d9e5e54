package dev.runboard.workspace;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A key of a workspace mapping that its type has no property for, and the one sentence that names
 * it, with the nearest known key when there is one close enough to be a typo.
 *
 * <p>Jackson builds a record through its constructor before it reports the keys left over, so a
 * mapping whose only key was misspelled ({@code comand: make}) failed as the record's own check ("a
 * command needs either 'command' or 'argv'"), never naming the typo; {@link #in} finds it then.
 */
record UnknownKey(String key, String where, List<String> known) {
    /** The furthest a key may be from a known one (in edits) to be offered as what was meant. */
    private static final int MAX_EDITS = 2;

    /**
     * The first key of the mapping at {@code at} in {@code root} that {@code type} has no property for;
     * {@code where} names the mapping in the message (as {@code commands.web}).
     */
    static Optional<UnknownKey> in(ObjectMapper mapper, JsonNode root, JsonPointer at, JavaType type, String where) {
        JsonNode mapping = root.at(at);
        if (!mapping.isObject() || type == null) {
            return Optional.empty();
        }
        List<String> known = mapper.getDeserializationConfig().introspect(type).findProperties().stream()
                .filter(BeanPropertyDefinition::couldDeserialize).map(BeanPropertyDefinition::getName).sorted().toList();
        if (known.isEmpty()) {
            return Optional.empty(); // not a type with named keys (a map): any key is allowed
        }
        for (Iterator<String> keys = mapping.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (!known.contains(key)) {
                return Optional.of(new UnknownKey(key, where, known));
            }
        }
        return Optional.empty();
    }

    String message() {
        return message(key, where, known);
    }

    /** "unknown key 'comand' in commands.web: did you mean 'command'? (known keys: argv, …)". */
    static String message(String key, String where, Collection<String> known) {
        String guess = closest(key, known).map(k -> ": did you mean '" + k + "'?").orElse("");
        return "unknown key '" + key + "'" + (where.isEmpty() ? "" : " in " + where) + guess
                + (known.isEmpty() ? "" : " (known keys: " + String.join(", ", known.stream().sorted().toList()) + ")");
    }

    /** The known key nearest to {@code key}, ignoring case, when it is at most {@link #MAX_EDITS} edits away and not the key itself. */
    static Optional<String> closest(String key, Collection<String> known) {
        String best = null;
        int bestEdits = Integer.MAX_VALUE;
        // A short key is offered a one-edit neighbour only: within two edits, three letters are near too many keys.
        int allowed = Math.min(MAX_EDITS, Math.max(1, key.length() / 3));
        for (String k : known.stream().sorted().toList()) {
            if (Math.abs(key.length() - k.length()) > allowed) {
                continue; // that many edits at least, and a long key costs no table of its length
            }
            int edits = edits(key.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (edits <= allowed && edits < bestEdits && !k.equals(key)) {
                best = k;
                bestEdits = edits;
            }
        }
        return Optional.ofNullable(best);
    }

    /** Edits from one to the other: insertions, deletions, substitutions and swaps of neighbours ("tpc" for "tcp"). */
    private static int edits(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(d[i - 1][j - 1] + cost, Math.min(d[i - 1][j], d[i][j - 1]) + 1);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
