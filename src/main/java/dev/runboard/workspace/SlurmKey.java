package dev.runboard.workspace;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import dev.runboard.session.SlurmTarget;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code slurm:} on a command in runboard.yaml: {@code true} (a Slurm job with Slurm's defaults),
 * {@code false} (here), or {@code {sbatch: [ARGS]}} (sbatch's arguments, as given). Written back in
 * the same two forms.
 */
public final class SlurmKey {
    private static final String EXPECTED = "expected true, false or {sbatch: [ARGS]} such as {sbatch: [--partition=gpu]}";

    private SlurmKey() {
    }

    /** Jackson reader: anything else fails with the parser's line and column, saying what to write. */
    public static final class Reader extends JsonDeserializer<SlurmTarget> {
        @Override
        public SlurmTarget deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() == JsonToken.VALUE_TRUE) {
                return SlurmTarget.DEFAULTS;
            }
            if (p.currentToken() == JsonToken.VALUE_FALSE) {
                return null;
            }
            JsonNode node = p.readValueAsTree();
            JsonNode sbatch = node == null ? null : node.get("sbatch");
            if (node == null || !node.isObject() || node.size() != 1 || sbatch == null || !sbatch.isArray()) {
                throw InvalidFormatException.from(p, "'slurm': " + EXPECTED, String.valueOf(node), SlurmTarget.class);
            }
            List<String> args = new ArrayList<>();
            for (JsonNode a : sbatch) {
                if (!a.isValueNode() || a.isNull()) {
                    throw InvalidFormatException.from(p, "'slurm.sbatch': each argument is one string, such as --partition=gpu",
                            a.toString(), SlurmTarget.class);
                }
                args.add(a.asText());
            }
            try {
                return new SlurmTarget(args).check();
            } catch (IllegalArgumentException e) {
                throw InvalidFormatException.from(p, e.getMessage(), args.toString(), SlurmTarget.class);
            }
        }

        @Override
        public SlurmTarget getNullValue(DeserializationContext ctxt) {
            return null;
        }
    }

    /** Jackson writer: {@code true} when no sbatch arguments are given. */
    public static final class Writer extends JsonSerializer<SlurmTarget> {
        @Override
        public void serialize(SlurmTarget value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
            if (value.sbatch().isEmpty()) {
                gen.writeBoolean(true);
                return;
            }
            gen.writeStartObject();
            gen.writeArrayFieldStart("sbatch");
            for (String a : value.sbatch()) {
                gen.writeString(a);
            }
            gen.writeEndArray();
            gen.writeEndObject();
        }
    }
}
