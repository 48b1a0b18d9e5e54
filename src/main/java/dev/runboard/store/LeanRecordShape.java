package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A record type as Jackson reads it, for {@link LeanJsonReader}: its canonical constructor, each
 * component's JSON name (its {@link JsonProperty}, on the accessor or lent by {@link SessionMixIns}),
 * its type, and the value a missing property takes (null, or a primitive's zero). A type whose
 * Jackson annotations could make Jackson read it otherwise has no shape: {@link LeanJsonReader.Unreadable}.
 * Also which enums Jackson reads by their constants' names.
 */
record LeanRecordShape(Constructor<?> constructor, Map<String, Integer> index, Type[] types, Object[] defaults) {
    /** Annotations that change nothing in how a record is read. */
    private static final List<String> HARMLESS_ON_CLASS = List.of(JsonPropertyOrder.class.getName(), JsonInclude.class.getName());
    private static final Map<Class<?>, LeanRecordShape> SHAPES = new ConcurrentHashMap<>();
    private static final Map<Class<?>, Boolean> PLAIN_ENUMS = new ConcurrentHashMap<>();

    /** The shape of {@code type}, worked out once; Unreadable when Jackson could read it otherwise. */
    static LeanRecordShape of(Class<?> type) {
        return SHAPES.computeIfAbsent(type, LeanRecordShape::shapeOf);
    }

    private static LeanRecordShape shapeOf(Class<?> type) {
        JacksonAnnotations annotations = JacksonAnnotations.of(type);
        for (ClassFileAnnotations.Annotation a : annotations.onClass()) {
            if (isJackson(a) && !HARMLESS_ON_CLASS.contains(a.type())) {
                throw new LeanJsonReader.Unreadable(type.getName() + ": @" + a.type());
            }
        }
        RecordComponent[] components = type.getRecordComponents();
        Map<String, Integer> index = new HashMap<>();
        Type[] types = new Type[components.length];
        Object[] defaults = new Object[components.length];
        Class<?>[] raw = new Class<?>[components.length];
        List<Method> accessors = new ArrayList<>();
        for (int i = 0; i < components.length; i++) {
            Method accessor = components[i].getAccessor();
            accessors.add(accessor);
            List<ClassFileAnnotations.Annotation> on = annotations.onMethod(accessor);
            for (ClassFileAnnotations.Annotation a : on) {
                if (isJackson(a) && !a.type().equals(JsonProperty.class.getName())) {
                    throw new LeanJsonReader.Unreadable(type.getName() + "." + accessor.getName() + ": @" + a.type());
                }
            }
            index.put(JacksonAnnotations.componentName(components[i], on), i);
            types[i] = components[i].getGenericType();
            raw[i] = components[i].getType();
            defaults[i] = zero(raw[i]);
        }
        for (Method m : type.getDeclaredMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || m.isSynthetic() || accessors.contains(m)) {
                continue;
            }
            for (ClassFileAnnotations.Annotation a : annotations.onMethod(m)) {
                // A named method is a property Jackson writes and, reading, skips (as this reader skips an
                // unknown name), unless it returns a collection or a map, which Jackson would fill.
                boolean writtenOnly = a.type().equals(JsonProperty.class.getName())
                        && !java.util.Collection.class.isAssignableFrom(m.getReturnType())
                        && !Map.class.isAssignableFrom(m.getReturnType());
                if (isJackson(a) && !a.type().equals(JsonIgnore.class.getName()) && !writtenOnly) {
                    throw new LeanJsonReader.Unreadable(type.getName() + "." + m.getName() + ": @" + a.type());
                }
            }
        }
        try {
            Constructor<?> canonical = type.getDeclaredConstructor(raw);
            canonical.setAccessible(true);
            return new LeanRecordShape(canonical, Map.copyOf(index), types, defaults);
        } catch (NoSuchMethodException | RuntimeException e) {
            throw new LeanJsonReader.Unreadable(type.getName() + ": no canonical constructor to call");
        }
    }

    Object create(Object[] args) {
        try {
            return constructor.newInstance(args);
        } catch (InvocationTargetException e) {
            throw new LeanJsonReader.Unreadable(constructor.getDeclaringClass().getName() + " refused its values: " + e.getCause());
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw new LeanJsonReader.Unreadable(constructor.getDeclaringClass().getName() + ": " + e);
        }
    }

    private static boolean isJackson(ClassFileAnnotations.Annotation a) {
        return a.type().startsWith("com.fasterxml.");
    }

    private static Object zero(Class<?> type) {
        if (!type.isPrimitive()) {
            return null;
        }
        if (type == boolean.class) {
            return false;
        } else if (type == int.class) {
            return 0;
        } else if (type == long.class) {
            return 0L;
        } else if (type == double.class) {
            return 0.0;
        }
        throw new LeanJsonReader.Unreadable("a " + type + " component"); // read here only as the types above
    }

    /**
     * A constant of an enum Jackson reads by its name: one without Jackson annotations on the type,
     * its methods or its constants (which could rename, alias or read it otherwise). Jackson's other
     * forms (an index, another case) are left to it.
     */
    static Object enumConstant(Class<?> type, String name) {
        if (!PLAIN_ENUMS.computeIfAbsent(type, LeanRecordShape::isPlainEnum)) {
            throw new LeanJsonReader.Unreadable("the enum " + type.getName() + ", which Jackson annotations shape");
        }
        for (Object constant : type.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(name)) {
                return constant;
            }
        }
        throw new LeanJsonReader.Unreadable("an unknown " + type.getSimpleName() + ": " + name);
    }

    private static boolean isPlainEnum(Class<?> type) {
        JacksonAnnotations annotations = JacksonAnnotations.of(type);
        if (annotations.onClass().stream().anyMatch(LeanRecordShape::isJackson)) {
            return false;
        }
        for (Method m : type.getDeclaredMethods()) {
            if (annotations.onMethod(m).stream().anyMatch(LeanRecordShape::isJackson)) {
                return false;
            }
        }
        for (java.lang.reflect.Field f : type.getDeclaredFields()) {
            for (java.lang.annotation.Annotation a : f.getAnnotations()) {
                if (a.annotationType().getName().startsWith("com.fasterxml.")) {
                    return false;
                }
            }
        }
        return true;
    }
}
