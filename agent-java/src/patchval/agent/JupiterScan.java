// patchval agent: JupiterScan owns the cheap, name-based questions about JUnit 5 (Jupiter): is the
// Platform on the agent's class path, does a class hold Jupiter test methods, is a method one.
// It refers to no JUnit 5 class, so it works (answering "no") when the junit5 jars are absent;
// everything that needs the Platform itself is in JupiterRunner.
package patchval.agent;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.HashSet;
import java.util.Set;

final class JupiterScan {
    private JupiterScan() {}

    /** Every Jupiter test annotation (@Test, @TestTemplate, @ParameterizedTest, ...) is meta-annotated with it. */
    private static final String TESTABLE = "org.junit.platform.commons.annotation.Testable";
    private static final String NESTED = "org.junit.jupiter.api.Nested";

    private static volatile Boolean available;

    /** True when the Platform launcher and the Jupiter engine are on the agent's class path. */
    static boolean available() {
        Boolean a = available;
        if (a == null) {
            boolean ok;
            try {
                ClassLoader l = JupiterScan.class.getClassLoader();
                Class.forName("org.junit.platform.launcher.core.LauncherFactory", false, l);
                Class.forName("org.junit.jupiter.engine.JupiterTestEngine", false, l);
                ok = true;
            } catch (Throwable t) {
                ok = false;
            }
            available = a = ok;
        }
        return a;
    }

    /** Whether m carries an annotation that is (or is meta-annotated with) @Testable. */
    static boolean isTestable(Method m) {
        for (Annotation a : m.getDeclaredAnnotations()) {
            if (isTestableType(a.annotationType(), new HashSet<>())) return true;
        }
        return false;
    }

    private static boolean isTestableType(Class<? extends Annotation> t, Set<Class<?>> seen) {
        if (!seen.add(t)) return false;
        if (t.getName().equals(TESTABLE)) return true;
        if (t.getName().startsWith("java.lang.annotation.")) return false;
        for (Annotation meta : t.getDeclaredAnnotations()) {
            if (isTestableType(meta.annotationType(), seen)) return true;
        }
        return false;
    }

    static boolean isNested(Class<?> c) {
        for (Annotation a : c.getDeclaredAnnotations()) {
            if (a.annotationType().getName().equals(NESTED)) return true;
        }
        return false;
    }

    /** Whether cls, its superclasses and interfaces, or its @Nested inner classes declare a Jupiter test method. */
    static boolean hasTests(Class<?> cls) {
        return hasTests(cls, new HashSet<>());
    }

    private static boolean hasTests(Class<?> cls, Set<Class<?>> seen) {
        if (cls == null || cls == Object.class || !seen.add(cls)) return false;
        for (Method m : cls.getDeclaredMethods()) {
            if (isTestable(m)) return true;
        }
        if (hasTests(cls.getSuperclass(), seen)) return true;
        for (Class<?> i : cls.getInterfaces()) {
            if (hasTests(i, seen)) return true;
        }
        for (Class<?> inner : cls.getDeclaredClasses()) {
            if (!Modifier.isStatic(inner.getModifiers()) && isNested(inner) && hasTests(inner, seen)) return true;
        }
        return false;
    }

    /** Whether a method named {@code name} of cls (declared or inherited, any visibility) is a Jupiter test. */
    static boolean hasTestMethod(Class<?> cls, String name) {
        return hasTestMethod(cls, name, new HashSet<>());
    }

    private static boolean hasTestMethod(Class<?> cls, String name, Set<Class<?>> seen) {
        if (cls == null || cls == Object.class || !seen.add(cls)) return false;
        for (Method m : cls.getDeclaredMethods()) {
            if (m.getName().equals(name) && isTestable(m)) return true;
        }
        if (hasTestMethod(cls.getSuperclass(), name, seen)) return true;
        for (Class<?> i : cls.getInterfaces()) {
            if (hasTestMethod(i, name, seen)) return true;
        }
        return false;
    }
}
