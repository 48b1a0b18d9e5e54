package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import java.lang.annotation.Annotation;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes runboard's records and snapshots exactly as {@link Json#write} does, without Jackson's
 * databind: starting it costs about 0.25 s of CPU and 600 classes, more than a whole
 * {@code runboard exec -- true} may cost (docs/BENCHMARKS.md §10). It reads the same annotations
 * (only their names and order, on the types themselves or lent by {@link SessionMixIns}; read from
 * the class files, {@link ClassFileAnnotations}, as reflection's annotation proxies cost a third of
 * that run's CPU again) from records of strings, numbers, booleans, enums, instants, lists and maps;
 * anything else — another Jackson annotation, a {@code Duration}, a lone surrogate — is handed to
 * Jackson, so the output never differs (LeanJsonTest holds the two side by side).
 */
public final class LeanJson {
    /** Annotations this writer understands; any other Jackson annotation on a written type sends it to Jackson. */
    private static final List<Class<? extends Annotation>> KNOWN = List.of(JsonProperty.class, JsonIgnore.class,
            JsonPropertyOrder.class, JsonValue.class);
    private static final Map<Class<?>, List<Property>> PROPERTIES = new ConcurrentHashMap<>();

    private LeanJson() {
    }

    public static String write(Object value) {
        String lean = writeItself(value);
        return lean != null ? lean : Json.write(value);
    }

    /** The JSON as this writer writes it, or null where only Jackson can (LeanJsonTest holds exec's values to it). */
    static String writeItself(Object value) {
        try {
            return LeanJsonWriter.text(value);
        } catch (Unsupported e) {
            return null;
        }
    }

    /**
     * Works out now what a first write of this record type, and of the record types its properties
     * hold, needs (their properties, read from the class files), so the write does not: exec does it
     * while its command runs, for the snapshot it prints once the command has ended (docs/BENCHMARKS.md
     * §10, round 5). A type this writer hands to Jackson is left for its write to find out.
     */
    public static void prepare(Class<?> type) {
        prepare(type, new java.util.HashSet<>());
    }

    private static void prepare(java.lang.reflect.Type type, java.util.Set<Class<?>> seen) {
        if (type instanceof java.lang.reflect.ParameterizedType p) {
            for (java.lang.reflect.Type argument : p.getActualTypeArguments()) {
                prepare(argument, seen);
            }
            return;
        }
        if (!(type instanceof Class<?> c) || !c.isRecord() || !seen.add(c)) {
            return;
        }
        List<Property> properties;
        try {
            properties = propertiesOf(c);
        } catch (Unsupported e) {
            return; // written by Jackson: nothing to prepare here
        }
        if (LeanJsonLayouts.RECORDS.containsKey(c.getName())) {
            return; // the types it holds are listed too, each as cheap at its first write (no generic signatures to parse)
        }
        for (Property p : properties) {
            prepare(p.getter().getGenericReturnType(), seen);
        }
    }

    /**
     * {@link #write}'s JSON as UTF-8 bytes, made as bytes: the long text of a {@link
     * dev.runboard.session.TextAsUtf8} record (a snapshot's output, a record's preview) is escaped
     * from its own bytes, never decoded (LeanJsonTest holds the two side by side).
     */
    public static byte[] writeBytes(Object value) {
        try {
            return LeanJsonWriter.utf8(value);
        } catch (Unsupported e) {
            return Json.write(value).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** Something this writer does not write as Jackson would: Jackson writes the whole value instead. */
    static final class Unsupported extends RuntimeException {
        Unsupported(String what) {
            super(what, null, false, false);
        }
    }

    record Property(String name, Method getter) {
    }

    /**
     * A record type's properties, worked out at its first write (two threads may both work them out:
     * the same list). Not computeIfAbsent with a method reference: linking it cost exec ~0.4 ms.
     */
    static List<Property> propertiesOf(Class<?> type) {
        List<Property> known = PROPERTIES.get(type);
        if (known == null) {
            known = properties(type);
            PROPERTIES.put(type, known);
        }
        return known;
    }

    /** The enum's {@link JsonValue} method, or null when Jackson writes its constants by name. */
    static Method jsonValueOf(Class<?> type) {
        JacksonAnnotations annotations = JacksonAnnotations.of(type);
        for (Method m : type.getMethods()) {
            // Methods the enum inherits from the JDK carry no Jackson annotation; others' are read by reflection.
            boolean jsonValue = m.getDeclaringClass() == type ? JacksonAnnotations.find(annotations.onMethod(m), JsonValue.class) != null
                    : !m.getDeclaringClass().getName().startsWith("java.") && m.isAnnotationPresent(JsonValue.class);
            if (jsonValue && m.getParameterCount() == 0) {
                return m;
            }
        }
        checkAnnotations(annotations.onClass());
        return null;
    }


    /**
     * A record's properties in Jackson's order: those {@link JsonPropertyOrder} names first, then the
     * components in declaration order, then at most one annotated method (more would need
     * Jackson's own ordering rules). Public {@code getX()}/{@code isX()} methods, which Jackson
     * would also write, are not supported.
     */
    private static List<Property> properties(Class<?> type) {
        String layout = LeanJsonLayouts.RECORDS.get(type.getName());
        return layout != null ? fromLayout(type, layout) : analysed(type);
    }

    /** The properties a {@link LeanJsonLayouts} entry names, each with its accessor; as analysed when one is missing. */
    private static List<Property> fromLayout(Class<?> type, String layout) {
        if (layout.isEmpty()) {
            return List.of();
        }
        List<Property> out = new ArrayList<>();
        for (String pair : layout.split(",")) {
            int eq = pair.indexOf('=');
            try {
                out.add(new Property(pair.substring(0, eq), type.getDeclaredMethod(pair.substring(eq + 1))));
            } catch (NoSuchMethodException stale) {
                return analysed(type); // the class file decides (LeanJsonLayoutsTest keeps this from happening)
            }
        }
        return List.copyOf(out);
    }

    /**
     * A record type's layout as {@link LeanJsonLayouts} holds it ("json name=accessor" pairs, in order),
     * and the types its properties hold, into {@code held}; null for a type only Jackson writes.
     */
    static String layoutOf(Class<?> type, java.util.Set<java.lang.reflect.Type> held) {
        StringBuilder out = new StringBuilder();
        try {
            for (Property p : analysed(type)) {
                out.append(out.length() == 0 ? "" : ",").append(p.name()).append('=').append(p.getter().getName());
                held.add(p.getter().getGenericReturnType());
            }
        } catch (Unsupported e) {
            return null;
        }
        return out.toString();
    }

    /** An enum's entry in {@link LeanJsonLayouts}: its {@link JsonValue} method's name, "" for none; null when only Jackson writes it. */
    static String enumLayoutOf(Class<?> type) {
        try {
            Method m = jsonValueOf(type);
            return m == null ? "" : m.getName();
        } catch (Unsupported e) {
            return null;
        }
    }

    /** As the type's class file (and its mix-in's) says: what {@link LeanJsonLayouts} spares the types it lists. */
    static List<Property> analysed(Class<?> type) {
        JacksonAnnotations annotations = JacksonAnnotations.of(type);
        checkAnnotations(annotations.onClass());
        Map<String, Property> byName = new LinkedHashMap<>();
        List<Method> accessors = new ArrayList<>();
        for (RecordComponent c : type.getRecordComponents()) {
            Method getter = c.getAccessor();
            accessors.add(getter);
            List<ClassFileAnnotations.Annotation> on = annotations.onMethod(getter);
            checkAnnotations(on);
            if (JacksonAnnotations.find(on, JsonIgnore.class) == null) {
                String name = JacksonAnnotations.componentName(c, on);
                byName.put(name, new Property(name, getter));
            }
        }
        List<Property> extra = new ArrayList<>();
        for (Method m : type.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.getParameterCount() != 0 || accessors.contains(m)
                    || m.getDeclaringClass() != type) {
                continue;
            }
            List<ClassFileAnnotations.Annotation> on = annotations.onMethod(m);
            checkAnnotations(on);
            String named = JacksonAnnotations.nameIn(JacksonAnnotations.find(on, JsonProperty.class));
            if (named != null) {
                extra.add(new Property(named.isEmpty() ? m.getName() : named, m));
            } else if (JacksonAnnotations.find(on, JsonIgnore.class) == null && isBeanGetter(m.getName())) {
                throw new Unsupported(type.getName() + "." + m.getName() + ": a bean getter Jackson would write");
            }
        }
        List<Property> ordered = new ArrayList<>();
        ClassFileAnnotations.Annotation order = JacksonAnnotations.find(annotations.onClass(), JsonPropertyOrder.class);
        Map<String, Property> extraByName = new LinkedHashMap<>();
        extra.forEach(p -> extraByName.put(p.name(), p));
        if (order != null) {
            if (Boolean.TRUE.equals(order.values().get("alphabetic"))) {
                throw new Unsupported(type.getName() + ": alphabetic order");
            }
            Object names = order.values().getOrDefault("value", List.of());
            for (Object name : names instanceof List<?> list ? list : List.of(names)) {
                Property p = byName.containsKey(name) ? byName.remove(name) : extraByName.remove(name);
                if (p != null) {
                    ordered.add(p);
                }
            }
        }
        if (extraByName.size() > 1) {
            throw new Unsupported(type.getName() + ": several unordered method properties");
        }
        ordered.addAll(byName.values());
        ordered.addAll(extraByName.values());
        return List.copyOf(ordered);
    }

    private static boolean isBeanGetter(String name) {
        return name.length() > 3 && name.startsWith("get") && Character.isUpperCase(name.charAt(3))
                || name.length() > 2 && name.startsWith("is") && Character.isUpperCase(name.charAt(2));
    }

    private static void checkAnnotations(List<ClassFileAnnotations.Annotation> annotations) {
        for (ClassFileAnnotations.Annotation a : annotations) {
            if (a.type().startsWith("com.fasterxml.") && KNOWN.stream().noneMatch(k -> k.getName().equals(a.type()))) {
                throw new Unsupported("@" + a.type().substring(a.type().lastIndexOf('.') + 1));
            }
        }
    }

    static Object invoke(Method m, Object target) {
        try {
            return m.invoke(target);
        } catch (IllegalAccessException e) {
            throw new Unsupported(m + " is not accessible");
        } catch (InvocationTargetException e) {
            throw new Unsupported(m + " threw " + e.getCause()); // Jackson reports it its own way
        }
    }

}
