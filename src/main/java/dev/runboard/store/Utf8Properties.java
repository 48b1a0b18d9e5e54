package dev.runboard.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.json.UTF8JsonGenerator;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.SerializationConfig;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.ser.BeanPropertyWriter;
import com.fasterxml.jackson.databind.ser.BeanSerializerModifier;
import dev.runboard.session.TextAsUtf8;
import java.util.ArrayList;
import java.util.List;

/**
 * The string properties of a {@link TextAsUtf8} value (a snapshot's output, a record's preview),
 * written into UTF-8 JSON from the bytes the value hands over, escaped by Jackson's generator: the
 * 64 KiB text of a preview is never decoded into a String and encoded again at the end of an exec
 * (docs/BENCHMARKS.md §10, round 14). Into anything else (a String, a tree) they are written as usual.
 */
final class Utf8Properties extends BeanSerializerModifier {
    private static final long serialVersionUID = 1L;

    @Override
    public List<BeanPropertyWriter> changeProperties(SerializationConfig config, BeanDescription bean,
            List<BeanPropertyWriter> properties) {
        if (!TextAsUtf8.class.isAssignableFrom(bean.getBeanClass())) {
            return properties;
        }
        List<BeanPropertyWriter> changed = new ArrayList<>(properties.size());
        for (BeanPropertyWriter p : properties) {
            changed.add(p.getType().hasRawClass(String.class) ? new FromBytes(p) : p);
        }
        return changed;
    }

    private static final class FromBytes extends BeanPropertyWriter {
        private static final long serialVersionUID = 1L;
        /** The accessor's name, which {@link TextAsUtf8#utf8Of} is asked by (a record component's field has the same). */
        private final String accessor;

        FromBytes(BeanPropertyWriter base) {
            super(base);
            this.accessor = base.getMember().getName();
        }

        @Override
        public void serializeAsField(Object bean, JsonGenerator g, SerializerProvider provider) throws Exception {
            byte[] utf8 = g instanceof UTF8JsonGenerator ? ((TextAsUtf8) bean).utf8Of(accessor) : null;
            if (utf8 == null) {
                super.serializeAsField(bean, g, provider);
                return;
            }
            g.writeFieldName(_name);
            g.writeUTF8String(utf8, 0, utf8.length);
        }
    }
}
