package dev.runboard.bench;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javafx.beans.value.ObservableValue;

/**
 * Where one object's bytes are (memory benchmark diagnostic): walks runboard's own objects by
 * reflection, collections and maps through their interfaces, JavaFX properties through their
 * value, and sums the payload of strings (1 byte a char if Latin-1, else 2) and primitive arrays
 * by field path. Object headers and JDK internals are not counted; each object is counted once.
 */
final class Footprint {
    private final Set<Object> seen = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<String, Long> bytes = new TreeMap<>();

    static Map<String, Long> of(Object root) {
        Footprint f = new Footprint();
        f.walk(root, root.getClass().getSimpleName(), 0);
        Map<String, Long> big = new TreeMap<>();
        f.bytes.forEach((k, v) -> {
            if (v >= 256) {
                big.put(k, v);
            }
        });
        big.put("TOTAL (all paths)", f.bytes.values().stream().mapToLong(Long::longValue).sum());
        return big;
    }

    private void walk(Object o, String path, int depth) {
        if (o == null || depth > 12 || !seen.add(o)) {
            return;
        }
        if (o instanceof String s) {
            add(path, s.chars().allMatch(c -> c < 256) ? s.length() : 2L * s.length());
        } else if (o instanceof byte[] a) {
            add(path, a.length);
        } else if (o instanceof char[] a) {
            add(path, 2L * a.length);
        } else if (o instanceof int[] a) {
            add(path, 4L * a.length);
        } else if (o instanceof long[] a) {
            add(path, 8L * a.length);
        } else if (o instanceof Collection<?> c) {
            c.forEach(x -> walk(x, path + "[]", depth + 1));
        } else if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> {
                walk(k, path + "{k}", depth + 1);
                walk(v, path + "{v}", depth + 1);
            });
        } else if (o instanceof java.util.Optional<?> opt) {
            opt.ifPresent(x -> walk(x, path, depth + 1));
        } else if (o instanceof ObservableValue<?> v) {
            walk(v.getValue(), path, depth + 1);
        } else if (owned(o.getClass())) {
            for (Class<?> c = o.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || f.getType().isPrimitive()) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        walk(f.get(o), path + "." + f.getName(), depth + 1);
                    } catch (ReflectiveOperationException | RuntimeException e) {
                        add(path + "." + f.getName() + " (unreadable)", 0);
                    }
                }
            }
        }
    }

    /** The session's own data: not lambdas (listeners would lead to the engine and the window), not the engine. */
    private static boolean owned(Class<?> c) {
        String n = c.getName();
        return !c.isHidden() && !c.isSynthetic() && !n.contains("Engine") && !n.contains("Lambda")
                && (n.startsWith("dev.runboard.session.") || n.startsWith("dev.runboard.process.") || n.equals("dev.runboard.ui.sessions.SessionRow"));
    }

    private void add(String path, long n) {
        bytes.merge(path, n, Long::sum);
    }
}
