package dev.runboard.session;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Which environment variables are secrets (issue #45): those whose names match the settings'
 * {@code secret_env_patterns} (globs, {@code *} any text, case-insensitive) and those a workspace
 * read from an {@code env_file}. Their values print as {@link #MASK} in every snapshot; the record
 * keeps them, so a rerun works.
 */
public final class SecretEnv {
    /** What a secret's value prints as. */
    public static final String MASK = String.valueOf((char) 0x2022).repeat(4);
    /** The settings' default {@code secret_env_patterns}. */
    public static final List<String> DEFAULT_PATTERNS = List.of("*TOKEN*", "*SECRET*", "*PASSWORD*", "*PASSWD*", "*API_KEY*",
            "*CREDENTIAL*", "*PRIVATE_KEY*");
    public static final SecretEnv DEFAULT = new SecretEnv(DEFAULT_PATTERNS);

    private final List<String> patterns;
    private final List<Pattern> compiled = new ArrayList<>();

    public SecretEnv(Collection<String> patterns) {
        this.patterns = List.copyOf(patterns);
        for (String p : this.patterns) {
            compiled.add(Pattern.compile(glob(p), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
        }
    }

    public List<String> patterns() {
        return patterns;
    }

    /** A glob as a regex: {@code *} any text, {@code ?} one character, everything else literal. */
    static String glob(String glob) {
        StringBuilder sb = new StringBuilder();
        for (String part : glob.split("(?=[*?])|(?<=[*?])")) {
            sb.append(part.equals("*") ? ".*" : part.equals("?") ? "." : Pattern.quote(part));
        }
        return sb.toString();
    }

    /** Whether a variable of this name is a secret by the patterns. */
    public boolean matches(String name) {
        return compiled.stream().anyMatch(p -> p.matcher(name).matches());
    }

    /** The names of {@code env} that are secrets: matching a pattern, or among {@code known} (from an env_file). */
    public Set<String> secretNames(Map<String, String> env, Collection<String> known) {
        Set<String> names = new TreeSet<>();
        for (String name : env.keySet()) {
            if (known.contains(name) || matches(name)) {
                names.add(name);
            }
        }
        return names;
    }

    /** {@code env} with the values of {@code secret} names replaced by {@link #MASK}; the same map when none is. */
    public static Map<String, String> redact(Map<String, String> env, Set<String> secret) {
        if (secret.isEmpty() || env.keySet().stream().noneMatch(secret::contains)) {
            return env;
        }
        Map<String, String> shown = new LinkedHashMap<>();
        env.forEach((k, v) -> shown.put(k, secret.contains(k) ? MASK : v));
        return java.util.Collections.unmodifiableMap(shown);
    }

    /** A pattern as settings store it: not empty, no control characters. */
    public static String checkPattern(String pattern) {
        if (pattern == null || pattern.isBlank() || pattern.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("a pattern is empty or holds a control character");
        }
        return pattern.strip();
    }
}
