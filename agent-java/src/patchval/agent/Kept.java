// patchval agent: Kept owns the enums and interfaces that look sticky (a field that may hold mutable
// state) but hold, when their initialiser ends, only values it can compare: it takes a snapshot then,
// and the warm loader is kept after a test as long as every snapshot still matches.
package patchval.agent;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * An enum's constants and an interface's fields are not re-created by Reset, so a class of either
 * kind with a field that may hold mutable state (ResetTransformer's test: not final, or an array,
 * {@code java.util} or string-builder type) is sticky: the worker drops the warm loader after any
 * test that initialised it, and the next test loads and instruments every class again.
 * jackson-core's {@code JsonToken} (final {@code char[]} and {@code byte[]} per constant, never
 * written) made jackson-databind's baseline reload the class path in almost every test.
 *
 * <p>At the end of such an initialiser ({@link #kept}), each of those fields — static ones, and the
 * instance fields of every enum constant up to the enum class — is read. When every value is null,
 * a primitive, an immutable JDK value ({@code String}, a box, a {@code Class}, an enum constant) or a
 * one-dimensional array holding only such values, the class is kept: a snapshot of the values (by
 * identity) and of the arrays' elements is recorded with its loader, and its sticky mark is
 * withdrawn. After every test, {@link #changed} compares each snapshot with the fields; if any
 * differs (the test, or a later initialiser, wrote one), the worker drops the warm loader as it
 * does after a sticky class. So every test starts with a kept class in the state its initialiser
 * left, as a non-sticky enum or interface does. Any other value (a collection, a builder, a project
 * object, a nested array) leaves the class sticky, and so does an initialiser that reached the
 * static state of a resettable class that is not pure-init ({@link Reset#initTouchedResettable}): jsoup's
 * {@code EscapeMode} fills {@code Entities.multipoints}, which the reset empties before every
 * test, where a fresh loader fills it again by initialising the enum ({@link Reset#exitInit} then
 * makes any such enum or interface sticky, one that never looked sticky included).
 */
public final class Kept {
    private Kept() {}

    /** One field of one object (null for a static field) and what it held. */
    private static final class Slot {
        final Field field;
        final Object owner;
        final Object value;
        /** A copy of the array's elements when the value is an array, else null. */
        final Object elements;

        Slot(Field field, Object owner, Object value, Object elements) {
            this.field = field;
            this.owner = owner;
            this.value = value;
            this.elements = elements;
        }
    }

    /** A kept class's snapshot. */
    static final class Snapshot {
        /** The kept class's binary name. */
        final String name;
        private final List<Slot> slots;

        private Snapshot(String name, List<Slot> slots) {
            this.name = name;
            this.slots = slots;
        }
    }

    /**
     * Called by the instrumented initialiser of a sticky enum or interface as it returns: when its
     * state can be put back, records the snapshot with the class's warm loader and withdraws the
     * class's {@link Reset#sticky} mark.
     */
    public static void kept(Class<?> c) {
        ClassLoader l = c.getClassLoader();
        if (!(l instanceof WarmLoader) || Reset.initTouchedResettable()) return;
        Snapshot s;
        try {
            s = take(c);
        } catch (Throwable t) {
            s = null;
        }
        if (s == null) return;
        ((WarmLoader) l).keep(s);
        Reset.unstick();
    }

    /** Whether a field of a kept class no longer holds what its snapshot recorded. */
    static boolean changed(List<Snapshot> snapshots) {
        for (Snapshot s : snapshots) {
            for (Slot slot : s.slots) {
                try {
                    Object now = slot.field.get(slot.owner);
                    if (slot.field.getType().isPrimitive() ? !Objects.equals(now, slot.value) : now != slot.value) {
                        return true;
                    }
                    if (slot.elements != null && !sameElements(slot.elements, now)) return true;
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Element by element: equal primitives, identical references. */
    private static boolean sameElements(Object copy, Object live) {
        if (copy.getClass().getComponentType().isPrimitive()) return Objects.deepEquals(copy, live);
        Object[] a = (Object[]) copy;
        Object[] b = (Object[]) live;
        for (int i = 0; i < a.length; i++) {
            if (a[i] != b[i]) return false;
        }
        return true;
    }

    private static Snapshot take(Class<?> c) throws ReflectiveOperationException {
        List<Slot> slots = new ArrayList<>();
        List<Object> constants = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers())) continue;
            if (f.isEnumConstant()) {
                f.setAccessible(true);
                constants.add(f.get(null));
            }
            if (!slot(f, null, slots)) return null;
        }
        for (Object constant : constants) {
            if (constant == null) continue;
            for (Class<?> k = constant.getClass(); k != null && k != Enum.class && k != Object.class; k = k.getSuperclass()) {
                for (Field f : k.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers())) continue;
                    if (!slot(f, constant, slots)) return null;
                }
                if (k == c) break;
            }
        }
        return new Snapshot(c.getName(), slots);
    }

    /** Adds the slot of {@code f} when it may hold mutable state; false when its value cannot be compared. */
    private static boolean slot(Field f, Object owner, List<Slot> slots) throws ReflectiveOperationException {
        if (!mayHoldState(f)) return true;
        f.setAccessible(true);
        Object v = f.get(owner);
        if (v == null || f.getType().isPrimitive() || immutable(v)) {
            slots.add(new Slot(f, owner, v, null));
            return true;
        }
        Class<?> t = v.getClass();
        if (!t.isArray()) return false;
        Class<?> e = t.getComponentType();
        if (!e.isPrimitive()) {
            for (int i = 0, n = Array.getLength(v); i < n; i++) {
                Object x = Array.get(v, i);
                if (x != null && !immutable(x)) return false;
            }
        }
        Object copy = Array.newInstance(e, Array.getLength(v));
        System.arraycopy(v, 0, copy, 0, Array.getLength(v));
        slots.add(new Slot(f, owner, v, copy));
        return true;
    }

    /**
     * ResetTransformer's test for a field that may hold mutable state (its enum's or interface's
     * other fields are not reset in any case).
     */
    private static boolean mayHoldState(Field f) {
        if (f.isSynthetic()) return false;
        if (!Modifier.isFinal(f.getModifiers())) return true;
        Class<?> t = f.getType();
        String n = t.getName();
        return t.isArray() || (n.startsWith("java.util.") && !n.startsWith("java.util.regex."))
            || t == StringBuilder.class || t == StringBuffer.class;
    }

    /** A value no code can change: a string, a box, a class, an enum constant. */
    private static boolean immutable(Object v) {
        return v instanceof String || v instanceof Integer || v instanceof Long || v instanceof Boolean
            || v instanceof Character || v instanceof Byte || v instanceof Short || v instanceof Double
            || v instanceof Float || v instanceof Class || v instanceof Enum;
    }
}
