// patchval agent: SystemLoader is the JVM's system class loader (-Djava.system.class.loader) in
// every JVM that runs a project's tests, so that ClassLoader.getSystemResource(s)/AsStream find what
// Maven's surefire puts on the JVM's class path: the project's resources (and those of its classes
// and dependencies), here held by the loader of the running test.
package patchval.agent;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

/**
 * Resources: asks the JVM's own class path first (the agent and JUnit), then the loader of the test
 * that runs (set by {@link TestRunner#runIn}). A lookup that comes back here from that loader (a
 * loader the test made with the system loader as its parent) answers from the JVM's class path
 * alone.
 *
 * <p>Classes are not delegated: the JVM records the system loader as an initiating loader of every
 * class {@code Class.forName(name, init, system)} returns, and would hand the first test's class to
 * every later test, whose loaders are fresh. A project class loaded through the system loader is not
 * found (docs/execution.md, "The system class loader").
 */
public final class SystemLoader extends ClassLoader {
    static {
        registerAsParallelCapable();
    }

    private static volatile ClassLoader tests;
    private static final ThreadLocal<Boolean> ASKING = new ThreadLocal<>();

    /** Called by the JVM with the built-in application class loader. */
    public SystemLoader(ClassLoader parent) {
        super(parent);
    }

    /** Makes {@code loader} the one asked after the JVM's class path; returns the one before. */
    static ClassLoader testLoader(ClassLoader loader) {
        ClassLoader before = tests;
        tests = loader;
        return before;
    }

    /** The test's loader, unless none runs or this thread is already asking it. */
    private static ClassLoader delegate() {
        ClassLoader t = tests;
        return t == null || ASKING.get() != null ? null : t;
    }

    @Override
    protected URL findResource(String name) {
        ClassLoader t = delegate();
        if (t == null) return null;
        ASKING.set(Boolean.TRUE);
        try {
            return t.getResource(name);
        } finally {
            ASKING.remove();
        }
    }

    @Override
    protected Enumeration<URL> findResources(String name) throws IOException {
        ClassLoader t = delegate();
        if (t == null) return Collections.emptyEnumeration();
        ASKING.set(Boolean.TRUE);
        try {
            // The test's loader also asks the JVM's class path, which getResources has listed already.
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
