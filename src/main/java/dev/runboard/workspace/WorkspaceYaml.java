package dev.runboard.workspace;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.runboard.store.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads and writes {@code runboard.yaml}. Strict on purpose: an unknown key, a duplicate key or a
 * bad value fails the whole file with its line and column, so a typo never half-loads.
 */
public final class WorkspaceYaml {
    public static final String FILE_NAME = "runboard.yaml";

    private static final ObjectMapper MAPPER = Json.sessionNames(YAMLMapper.builder(YAMLFactory.builder()
                    .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
                    .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
                    .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
                    .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .build()))
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .enable(DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY)
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .build();

    private WorkspaceYaml() {
    }

    /**
     * The largest workspace file read. Its YAML reader (SnakeYAML) takes time quadratic in a scalar's
     * length (its buffer is copied whole for every kilobyte read past a token's start): 1 MB in one
     * scalar took 1.8 s, 4 MB 93 s. 512 KiB bounds that to about a second, and is ten times the
     * largest stack file we know of.
     */
    static final int MAX_BYTES = 512 * 1024;

    /** Reads a workspace file; a missing or empty file is an empty workspace. */
    public static WorkspaceFile read(Path file) throws WorkspaceException {
        byte[] bytes;
        try (java.io.InputStream in = Files.newInputStream(file)) {
            bytes = in.readNBytes(MAX_BYTES + 1); // never more: a 20 MB file is refused, not read whole
            if (bytes.length > MAX_BYTES) {
                throw tooLarge(file, Math.max(bytes.length, Files.size(file)));
            }
        } catch (NoSuchFileException e) {
            return WorkspaceFile.EMPTY;
        } catch (IOException e) {
            throw new WorkspaceException(file, "cannot read: " + e.getMessage(), 0, 0, e);
        }
        return parse(UnreadableYaml.decode(file, bytes), file);
    }

    /** Parses workspace YAML; {@code file} only names the source in messages. */
    public static WorkspaceFile parse(String text, Path file) throws WorkspaceException {
        if (text.isBlank()) {
            return WorkspaceFile.EMPTY;
        }
        if (text.length() > MAX_BYTES) {
            throw tooLarge(file, text.length());
        }
        try {
            PlainYaml.check(text, file);
            return read(text, file);
        } catch (RuntimeException e) {
            // A reader bug must not take the window down with it: the file is refused, with the reason.
            throw new WorkspaceException(file, "cannot read: " + e, null, e);
        }
    }

    private static WorkspaceException tooLarge(Path file, long size) {
        return new WorkspaceException(file, "the file is " + dev.runboard.session.Sizes.format(size) + "; a workspace file"
                + " may be at most 512 KiB (long YAML values cost seconds to read): keep long scripts in files the commands"
                + " run", null, null);
    }

    private static WorkspaceFile read(String text, Path file) throws WorkspaceException {
        try (JsonParser p = MAPPER.createParser(text)) {
            try {
                if (p.nextToken() == null) {
                    return WorkspaceFile.EMPTY; // only comments
                }
                WorkspaceFile parsed = MAPPER.readValue(p, WorkspaceFile.class);
                if (parsed == null) {
                    return WorkspaceFile.EMPTY;
                }
                // With include, a dependency may be defined in another file: checked once they are merged (IncludedFiles).
                DependencyCheck.Problem problem = parsed.include() == null ? DependencyCheck.find(parsed) : null;
                if (problem != null) {
                    throw new WorkspaceException(file, problem.message(),
                            locate(text, com.fasterxml.jackson.core.JsonPointer.compile(problem.pointer())), null);
                }
                // issue #45: every env_file read now, so a missing one is a load error at its key's line
                DependencyCheck.Problem envFile = EnvFileCheck.find(parsed, file);
                if (envFile != null) {
                    throw new WorkspaceException(file, envFile.message(),
                            locate(text, com.fasterxml.jackson.core.JsonPointer.compile(envFile.pointer())), null);
                }
                return parsed;
            } catch (JsonProcessingException e) {
                MarkedYAMLException syntax = UnreadableYaml.syntaxIn(e);
                if (syntax != null) {
                    throw UnreadableYaml.syntax(file, syntax, e);
                }
                if (e instanceof ValueInstantiationException v) {
                    WorkspaceException typo = unknownKeyIn(v, text, file);
                    if (typo != null) {
                        throw typo;
                    }
                }
                throw new WorkspaceException(file, describe(e), placeOf(e, p, text), e);
            }
        } catch (IOException e) {
            MarkedYAMLException syntax = UnreadableYaml.syntaxIn(e);
            if (syntax != null) {
                throw UnreadableYaml.syntax(file, syntax, e);
            }
            if (e instanceof JsonProcessingException j) {
                JsonLocation at = j.getLocation();
                throw new WorkspaceException(file, describe(j), at, e);
            }
            throw new WorkspaceException(file, "cannot parse: " + e.getMessage(), null, e);
        }
    }

    /**
     * A mapping that failed as a whole (its record's check) because a key was misspelt: the unknown
     * key is the problem to name, at its line ({@link UnknownKey}); null when every key is known.
     */
    private static WorkspaceException unknownKeyIn(ValueInstantiationException e, String text, Path file) {
        com.fasterxml.jackson.core.JsonPointer at = pointerOf(e);
        com.fasterxml.jackson.databind.JsonNode root;
        try {
            root = MAPPER.readTree(text);
        } catch (IOException unreadable) {
            return null; // the first pass read it; the record's own problem is said instead
        }
        return UnknownKey.in(MAPPER, root, at, e.getType(), pathOf(e))
                .map(u -> new WorkspaceException(file, u.message(), locate(text, at.appendProperty(u.key())), e))
                .orElse(null);
    }

    /**
     * Where to point the person: the token being read when it failed (the unknown key, the bad
     * value), rather than Jackson's "current location", which in YAML is the end of that token;
     * for an unknown key or a command that fails as a whole (command and argv both given), the
     * key itself, found again by a second pass (record creators read the whole object first).
     */
    private static JsonLocation placeOf(JsonProcessingException e, JsonParser p, String text) {
        if ((e instanceof ValueInstantiationException || e instanceof UnrecognizedPropertyException)
                && !((JsonMappingException) e).getPath().isEmpty()) {
            com.fasterxml.jackson.core.JsonPointer at = pointerOf((JsonMappingException) e);
            if (e.getCause() instanceof KeyedProblem keyed) {
                JsonLocation key = locate(text, keyed.below(at));
                if (key != null) {
                    return key;
                }
            }
            JsonLocation named = locate(text, at);
            if (named != null) {
                return named;
            }
        }
        if (e instanceof JsonMappingException && p.currentTokenLocation() != null && p.currentTokenLocation().getLineNr() > 0) {
            return p.currentTokenLocation();
        }
        return e.getLocation();
    }

    private static com.fasterxml.jackson.core.JsonPointer pointerOf(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            sb.append('/').append(r.getFieldName() != null
                    ? r.getFieldName().replace("~", "~0").replace("/", "~1") : String.valueOf(r.getIndex()));
        }
        return com.fasterxml.jackson.core.JsonPointer.compile(sb.toString());
    }

    /**
     * A problem found after the file was read (a command that cannot start: its cwd is gone), placed
     * at the first of {@code pointers} (JSON pointers to keys, most precise first) that the file
     * holds; with no place when the file no longer reads or holds none of them.
     */
    public static WorkspaceException problemAt(Path file, String problem, String... pointers) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return new WorkspaceException(file, problem, null, null);
        }
        for (String pointer : pointers) {
            JsonLocation at = locate(text, com.fasterxml.jackson.core.JsonPointer.compile(pointer));
            if (at != null) {
                return new WorkspaceException(file, problem, at, null);
            }
        }
        return new WorkspaceException(file, problem, null, null);
    }

    /** The location of the key at {@code pointer}, found by a second pass over the tokens. */
    private static JsonLocation locate(String text, com.fasterxml.jackson.core.JsonPointer pointer) {
        try (JsonParser p = MAPPER.createParser(text)) {
            for (com.fasterxml.jackson.core.JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == com.fasterxml.jackson.core.JsonToken.FIELD_NAME && p.getParsingContext().pathAsPointer().equals(pointer)) {
                    return p.currentTokenLocation();
                }
            }
        } catch (IOException ignored) {
            // the first pass already failed; fall back to Jackson's own place
        }
        return null;
    }

    public static String write(WorkspaceFile content) {
        try {
            return MAPPER.writeValueAsString(content);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write the workspace as YAML", e);
        }
    }

    /** Writes through a temporary file and a rename, so watchers and readers never see half a file. */
    public static void save(WorkspaceFile content, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = Files.createTempFile(dir, "." + FILE_NAME, ".tmp");
        try {
            Files.writeString(tmp, write(content), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** One sentence for people; Jackson's own messages name Java types. */
    static String describe(JsonProcessingException e) {
        String path = e instanceof JsonMappingException m ? pathOf(m) : "";
        String in = path.isEmpty() ? "" : " in " + path;
        if (e instanceof UnrecognizedPropertyException u) {
            java.util.List<String> known = u.getKnownPropertyIds() == null ? java.util.List.of()
                    : u.getKnownPropertyIds().stream().map(String::valueOf).toList();
            String where = pathOf(u).replaceAll("\\.?" + java.util.regex.Pattern.quote(u.getPropertyName()) + "$", "");
            return UnknownKey.message(u.getPropertyName(), where, known);
        }
        if (e instanceof ValueInstantiationException v && v.getCause() != null) {
            String where = path.isEmpty() ? "" : "in " + path + ": ";
            return where + v.getCause().getMessage();
        }
        if (e instanceof InvalidFormatException f) {
            String msg = f.getOriginalMessage();
            if (f.getTargetType() == java.time.Duration.class || f.getTargetType() == RestartLimitText.class
                    || f.getTargetType() == SizeText.class || f.getTargetType() == dev.runboard.session.SlurmTarget.class) {
                // Their readers say what to write (SlurmKey, DurationText, RestartLimitText, SizeText).
                return "bad value" + in + ": " + msg;
            }
            return "bad value '" + f.getValue() + "'" + in + ": expected " + typeWord(f.getTargetType());
        }
        if (e instanceof com.fasterxml.jackson.databind.exc.MismatchedInputException mi) {
            return "bad value" + in + ": expected " + typeWord(mi.getTargetType());
        }
        String msg = e.getOriginalMessage();
        int nl = msg.indexOf('\n');
        return (nl > 0 ? msg.substring(0, nl) : msg).strip() + in;
    }

    private static String typeWord(Class<?> type) {
        if (type == null) {
            return "another kind of value";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (java.util.List.class.isAssignableFrom(type)) {
            return "a list";
        }
        if (java.util.Map.class.isAssignableFrom(type) || type == WorkspaceCommand.class || type == WorkspaceFile.class
                || type == ReadyCheck.class || type == RestartBackoff.class || type == GroupLimit.class
                || type == LivenessCheck.class || type == ShutdownKey.class) {
            return "a mapping (key: value lines)";
        }
        if (type == String.class) {
            return "a text value";
        }
        return "a " + type.getSimpleName().toLowerCase(java.util.Locale.ROOT);
    }

    private static String pathOf(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getFieldName() != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(r.getFieldName());
            } else if (r.getIndex() >= 0) {
                sb.append('[').append(r.getIndex()).append(']');
            }
        }
        return sb.toString();
    }
}
