package dev.runboard.store;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The annotations Jackson sees on a type: those its mix-in lends ({@link SessionMixIns}) first,
 * then its own; each as its class file holds them ({@link ClassFileAnnotations}: no proxies), or,
 * when the class file cannot be read, as reflection gives them. What {@link LeanJson} writes and
 * {@link LeanRecordShape} reads names its properties by.
 */
record JacksonAnnotations(Class<?> type, ClassFileAnnotations file, JacksonAnnotations lender) {
    static JacksonAnnotations of(Class<?> type) {
        Class<?> mixIn = SessionMixIns.BY_TARGET.get(type);
        return new JacksonAnnotations(type, ClassFileAnnotations.of(type), mixIn == null ? null : of(mixIn));
    }

    List<ClassFileAnnotations.Annotation> onClass() {
        List<ClassFileAnnotations.Annotation> own = file != null ? file.onClass() : reflected(type.getAnnotations());
        return lender == null ? own : concat(lender.onClass(), own);
    }

    /** A mix-in lends to the same-named method without parameters (a record's accessor). */
    List<ClassFileAnnotations.Annotation> onMethod(Method m) {
        List<ClassFileAnnotations.Annotation> own = file != null ? file.onMethod(m.getName()) : reflected(m.getAnnotations());
        return lender == null || m.getParameterCount() != 0 ? own : concat(lender.onMethodNamed(m.getName()), own);
    }

    private List<ClassFileAnnotations.Annotation> onMethodNamed(String name) {
        if (file != null) {
            return file.onMethod(name);
        }
        try {
            return reflected(type.getDeclaredMethod(name).getAnnotations());
        } catch (NoSuchMethodException e) {
            return List.of();
        }
    }

    private static List<ClassFileAnnotations.Annotation> concat(List<ClassFileAnnotations.Annotation> first,
            List<ClassFileAnnotations.Annotation> then) {
        List<ClassFileAnnotations.Annotation> all = new ArrayList<>(first);
        all.addAll(then);
        return all;
    }

    private static List<ClassFileAnnotations.Annotation> reflected(Annotation[] annotations) {
        List<ClassFileAnnotations.Annotation> out = new ArrayList<>();
        for (Annotation a : annotations) {
            Map<String, Object> values = new java.util.HashMap<>();
            if (a instanceof JsonProperty p) {
                values.put("value", p.value());
            } else if (a instanceof JsonPropertyOrder o) {
                values.put("value", List.of((Object[]) o.value()));
                values.put("alphabetic", o.alphabetic());
            }
            out.add(new ClassFileAnnotations.Annotation(a.annotationType().getName(), values));
        }
        return out;
    }

    /**
     * A record component's JSON name: the value of the {@link JsonProperty} among {@code on} (its
     * accessor's annotations), or its own name: LeanJson writes and LeanJsonReader reads by it.
     */
    static String componentName(RecordComponent c, List<ClassFileAnnotations.Annotation> on) {
        String named = nameIn(find(on, JsonProperty.class));
        return named == null || named.isEmpty() ? c.getName() : named;
    }

    static ClassFileAnnotations.Annotation find(List<ClassFileAnnotations.Annotation> in, Class<? extends Annotation> type) {
        for (ClassFileAnnotations.Annotation a : in) {
            if (a.type().equals(type.getName())) {
                return a;
            }
        }
        return null;
    }

    /** A {@link JsonProperty}'s value ("" when not given), or null without one. */
    static String nameIn(ClassFileAnnotations.Annotation property) {
        return property == null ? null : (String) property.values().getOrDefault("value", "");
    }
}
