// patchval agent: SystemLoader is the JVM's system class loader while a test runs: a fresh one per
// test (ClassLoader.getSystemClassLoader() answers it), so that getSystemResource(s)/AsStream,
// getSystemClassLoader().loadClass and ServiceLoader.load(.., getSystemClassLoader()) find what
// Maven's surefire puts on the JVM's class path: the project's classes, resources and
// dependencies, here held by the loader of the running test.
package patchval.agent;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * Asks the JVM's own class path first (the agent and JUnit), then the loader of its test. One per
 * test because the JVM records the system loader as an initiating loader of every class
 * {@code Class.forName(name, init, system)} returns: a loader kept across tests would hand the first
 * test's class to every later one. An instance kept past its test (a static of the JDK) finds no
 * class and answers resources from the loader of the test that runs. A lookup that comes back here
 * from the test's loader (a loader the test made with the system loader as its parent) answers
 * from the JVM's class path alone.
 */
final class SystemLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    /** {@code ClassLoader.scl} (java.lang is open to the agent: toolchain's JVM options), or null. */
    private static final VarHandle SCL = systemLoaderField();
    private static volatile ClassLoader running;
    private static final ThreadLocal<Boolean> ASKING = new ThreadLocal<>();

    private final ClassLoader tests;

    private SystemLoader(ClassLoader parent, ClassLoader tests) {
        super("patchval-system", parent);
        this.tests = tests;
    }

    private static VarHandle systemLoaderField() {
        try {
            return MethodHandles.privateLookupIn(ClassLoader.class, MethodHandles.lookup())
                .findStaticVarHandle(ClassLoader.class, "scl", ClassLoader.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /**
     * Makes a system class loader for the test that runs in {@code loader}; returns the one before
     * (for {@link #leave}), or null where the JDK's field cannot be reached (nothing changes).
     */
    static ClassLoader enter(ClassLoader loader) {
        running = loader;
        if (SCL == null) return null;
        try {
            ClassLoader before = ClassLoader.getSystemClassLoader();
            ClassLoader base = before instanceof SystemLoader ? before.getParent() : before;
            SCL.setVolatile(new SystemLoader(base, loader));
            return before;
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Puts back the system class loader {@link #enter} replaced. */
    static void leave(ClassLoader before) {
        running = null;
        if (SCL != null && before != null) SCL.setVolatile(before);
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (tests != running || ASKING.get() != null) throw new ClassNotFoundException(name);
        ASKING.set(Boolean.TRUE);
        try {
            return tests.loadClass(name);
        } finally {
            ASKING.remove();
        }
    }

    @Override
    protected URL findResource(String name) {
        ClassLoader t = running;
        if (t == null || ASKING.get() != null) return null;
        ASKING.set(Boolean.TRUE);
        try {
            return t.getResource(name);
        } finally {
            ASKING.remove();
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) throws IOException {
        ClassLoader t = running;
        if (t == null || ASKING.get() != null) return Collections.emptyEnumeration();
        ASKING.set(Boolean.TRUE);
        try {
            // The test's loader also lists the JVM's class path, which getResources has listed already.
            List<URL> own = Collections.list(getParent().getResources(name));
            List<URL> out = new ArrayList<>();
            for (URL u : Collections.list(t.getResources(name))) {
                if (!own.contains(u)) out.add(u);
            }
            return Collections.enumeration(out);
        } finally {
            ASKING.remove();
        }
    }
}
