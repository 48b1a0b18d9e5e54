package dev.runboard.store;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The runtime-visible annotations of a class and of its methods without parameters, read from its
 * class file. Reflection's {@code getAnnotations()} builds every annotation as a dynamic proxy,
 * whose classes JDK 17's class-data archive cannot hold: for {@link LeanJson}'s few record types
 * that cost about 0.1 s of CPU, a third of a whole {@code runboard exec -- true}
 * (docs/BENCHMARKS.md §10). An annotation here is its type's binary name and its explicit element
 * values: a String, Boolean, Integer, Long, Double, an enum constant's name, or a List of those.
 */
final class ClassFileAnnotations {
    /** An annotation: its type ({@code com.fasterxml.jackson.annotation.JsonProperty}) and the elements given. */
    record Annotation(String type, Map<String, Object> values) {
    }

    private final List<Annotation> onClass;
    private final Map<String, List<Annotation>> onMethods;

    private ClassFileAnnotations(List<Annotation> onClass, Map<String, List<Annotation>> onMethods) {
        this.onClass = onClass;
        this.onMethods = onMethods;
    }

    /** The type's annotations, or null when its class file cannot be read (the caller then uses reflection). */
    static ClassFileAnnotations of(Class<?> type) {
        String name = type.getName();
        try (InputStream in = type.getResourceAsStream(name.substring(name.lastIndexOf('.') + 1) + ".class")) {
            return in == null ? null : read(new DataInputStream(new ByteArrayInputStream(in.readAllBytes())));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    List<Annotation> onClass() {
        return onClass;
    }

    /** The annotations of the method with this name and no parameters, declared in this class. */
    List<Annotation> onMethod(String name) {
        return onMethods.getOrDefault(name, List.of());
    }

    private static ClassFileAnnotations read(DataInputStream in) throws IOException {
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor
        in.readUnsignedShort(); // major
        Object[] pool = readPool(in);
        in.readUnsignedShort(); // access
        in.readUnsignedShort(); // this
        in.readUnsignedShort(); // super
        skip(in, 2 * in.readUnsignedShort()); // interfaces
        for (int i = 0, n = in.readUnsignedShort(); i < n; i++) { // fields
            skip(in, 6);
            attributes(in, pool);
        }
        Map<String, List<Annotation>> methods = new HashMap<>();
        for (int i = 0, n = in.readUnsignedShort(); i < n; i++) {
            in.readUnsignedShort(); // access
            String name = (String) pool[in.readUnsignedShort()];
            String descriptor = (String) pool[in.readUnsignedShort()];
            List<Annotation> annotations = attributes(in, pool);
            if (descriptor.startsWith("()")) {
                methods.merge(name, annotations, (a, b) -> a.isEmpty() ? b : a); // a bridge method has none
            }
        }
        return new ClassFileAnnotations(attributes(in, pool), methods);
    }

    /** The constant pool: UTF-8 entries as Strings, numbers as their boxes, anything else null. */
    private static Object[] readPool(DataInputStream in) throws IOException {
        Object[] pool = new Object[in.readUnsignedShort()];
        for (int i = 1; i < pool.length; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1 -> pool[i] = in.readUTF(); // modified UTF-8 with its length: readUTF's own format
                case 3 -> pool[i] = in.readInt();
                case 4 -> pool[i] = in.readFloat();
                case 5 -> pool[i++] = in.readLong(); // longs and doubles take two entries
                case 6 -> pool[i++] = in.readDouble();
                case 7, 8, 16, 19, 20 -> skip(in, 2);
                case 15 -> skip(in, 3);
                case 9, 10, 11, 12, 17, 18 -> skip(in, 4);
                default -> throw new IOException("constant pool tag " + tag);
            }
        }
        return pool;
    }

    /** Reads an attribute table; the runtime-visible annotations in it. */
    private static List<Annotation> attributes(DataInputStream in, Object[] pool) throws IOException {
        List<Annotation> found = List.of();
        for (int i = 0, n = in.readUnsignedShort(); i < n; i++) {
            String name = (String) pool[in.readUnsignedShort()];
            int length = in.readInt();
            if ("RuntimeVisibleAnnotations".equals(name)) {
                found = new ArrayList<>();
                for (int a = 0, count = in.readUnsignedShort(); a < count; a++) {
                    found.add(annotation(in, pool));
                }
            } else {
                skip(in, length);
            }
        }
        return found;
    }

    private static Annotation annotation(DataInputStream in, Object[] pool) throws IOException {
        String descriptor = (String) pool[in.readUnsignedShort()]; // Lcom/x/Y; or Lcom/x/Y$Z;
        Map<String, Object> values = new HashMap<>();
        for (int i = 0, n = in.readUnsignedShort(); i < n; i++) {
            String name = (String) pool[in.readUnsignedShort()];
            values.put(name, elementValue(in, pool));
        }
        return new Annotation(descriptor.substring(1, descriptor.length() - 1).replace('/', '.'), values);
    }

    private static Object elementValue(DataInputStream in, Object[] pool) throws IOException {
        int tag = in.readUnsignedByte();
        return switch (tag) {
            case 'Z' -> ((Integer) pool[in.readUnsignedShort()]) != 0;
            case 'B', 'C', 'I', 'S', 'D', 'F', 'J', 's' -> pool[in.readUnsignedShort()];
            case 'e' -> {
                in.readUnsignedShort(); // the enum's type
                yield pool[in.readUnsignedShort()];
            }
            case 'c' -> pool[in.readUnsignedShort()];
            case '@' -> annotation(in, pool);
            case '[' -> {
                List<Object> list = new ArrayList<>();
                for (int i = 0, n = in.readUnsignedShort(); i < n; i++) {
                    list.add(elementValue(in, pool));
                }
                yield list;
            }
            default -> throw new IOException("annotation element tag " + (char) tag);
        };
    }

    private static void skip(DataInputStream in, int bytes) throws IOException {
        if (in.skipBytes(bytes) != bytes) {
            throw new IOException("class file cut short");
        }
    }
}
