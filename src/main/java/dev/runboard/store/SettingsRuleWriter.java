package dev.runboard.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import dev.runboard.session.OutputRule;
import java.io.IOException;

/**
 * A default rule in {@code settings.json}, spelled as the settings' schema says: the action as its
 * lowercase word ({@code fail}). A person edits this file by hand, next to the schema; records keep
 * the enum's name, which their golden files and older readers expect. Both spellings read back.
 */
final class SettingsRuleWriter extends StdSerializer<OutputRule> {
    SettingsRuleWriter() {
        super(OutputRule.class);
    }

    @Override
    public void serialize(OutputRule rule, JsonGenerator g, SerializerProvider p) throws IOException {
        g.writeStartObject();
        g.writeStringField("pattern", rule.pattern());
        g.writeStringField("action", rule.action().word());
        g.writeEndObject();
    }
}
