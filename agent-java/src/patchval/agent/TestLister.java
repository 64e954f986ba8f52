// patchval agent: TestLister owns test discovery (Agent.listTests): JUnit 3/4 methods, whole-class runners,
// JUnit 5 (Jupiter) methods through JupiterRunner, load errors.
package patchval.agent;

import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import org.junit.Ignore;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.BlockJUnit4ClassRunner;
import org.junit.runners.JUnit4;

final class TestLister {
    private TestLister() {}

    /** One sortable result entry. method == null marks a load error (Protocol.List.LOAD_ERROR). */
    private static final class Entry implements Comparable<Entry> {
        final String cls;
        final String method;
        final String text;

        Entry(String cls, String method, String text) {
            this.cls = cls;
            this.method = method;
            this.text = text;
        }

        @Override
        public int compareTo(Entry o) {
            int c = cls.compareTo(o.cls);
            if (c != 0) return c;
            String a = method == null ? "" : method;
            String b = o.method == null ? "" : o.method;
            c = a.compareTo(b);
            return c != 0 ? c : text.compareTo(o.text);
        }
    }

    static String[] listTests(String[] classpath, String[] classNames) {
        List<Entry> out = new ArrayList<>();
        URLClassLoader loader = null;
        Thread th = Thread.currentThread();
        ClassLoader saved = th.getContextClassLoader();
        try {
            loader = Util.newLoader(classpath);
            th.setContextClassLoader(loader);
            TreeSet<String> seen = new TreeSet<>();
            for (String name : classNames == null ? new String[0] : classNames) {
                if (name == null || !seen.add(name)) continue;
                try {
                    // initialize=false: listing must not run project static initialisers.
                    Class<?> cls = Class.forName(name, false, loader);
                    int before = out.size();
                    listClass(cls, name, out);
                    if (out.size() == before) listJupiter(cls, name, out);
                } catch (Throwable t) {
                    out.add(new Entry(name, null, Util.line(Protocol.List.LOAD_ERROR + Util.clean(name), Util.clean(Util.describe(t)))));
                }
            }
        } catch (Throwable t) {
            out.add(new Entry("", null, Util.line(Protocol.List.LOAD_ERROR, Util.clean("listTests failed: " + Util.describe(t)))));
        } finally {
            th.setContextClassLoader(saved);
            Util.closeQuietly(loader);
        }
        Collections.sort(out);
        String[] res = new String[out.size()];
        for (int i = 0; i < res.length; i++) res[i] = out.get(i).text;
        return res;
    }

    private static void listClass(Class<?> cls, String name, List<Entry> out) throws Exception {
        int mod = cls.getModifiers();
        if (cls.isInterface() || cls.isAnnotation() || cls.isEnum() || Modifier.isAbstract(mod)
            || !Modifier.isPublic(mod)) {
            return;
        }
        // Same precedence as JUnit's AllDefaultPossibilitiesBuilder: @Ignore, @RunWith, suite(), JUnit 3, JUnit 4.
        if (cls.isAnnotationPresent(Ignore.class)) return;
        RunWith rw = cls.getAnnotation(RunWith.class);
        if (rw != null && rw.value() != JUnit4.class && rw.value() != BlockJUnit4ClassRunner.class) {
            out.add(whole(name));
            return;
        }
        if (rw == null && hasSuiteMethod(cls) && !defaultSuite(cls)) {
            out.add(whole(name));
            return;
        }
        if (!hasUsableConstructor(cls)) return;
        TreeSet<String> methods = new TreeSet<>();
        boolean junit3 = rw == null && junit.framework.TestCase.class.isAssignableFrom(cls);
        for (Method m : cls.getMethods()) {
            if (junit3) {
                if (m.getParameterCount() == 0 && m.getName().startsWith("test")
                    && m.getReturnType() == Void.TYPE) {
                    methods.add(m.getName());
                }
            } else if (m.isAnnotationPresent(Test.class) && !m.isAnnotationPresent(Ignore.class)) {
                methods.add(m.getName());
            }
        }
        for (String m : methods) out.add(new Entry(name, m, name + Protocol.TestId.SEPARATOR + m));
    }

    /** JUnit 5: only for classes JUnit 3/4 found nothing in, and only when they declare Jupiter tests. */
    private static void listJupiter(Class<?> cls, String name, List<Entry> out) {
        if (!JupiterScan.hasTests(cls)) return;
        if (!JupiterScan.available()) {
            out.add(new Entry(name, null, Util.line(Protocol.List.LOAD_ERROR + Util.clean(name),
                "JUnit 5 (Jupiter) tests, but the JUnit Platform is not installed (Debian package junit5)")));
            return;
        }
        for (String[] t : JupiterRunner.list(cls)) {
            out.add(new Entry(t[0], t[1], Util.clean(t[0] + Protocol.TestId.SEPARATOR + t[1])));
        }
    }

    /** The entry of a class run as one test. */
    private static Entry whole(String name) {
        return new Entry(name, Protocol.TestId.WHOLE_CLASS, name + Protocol.TestId.SEPARATOR + Protocol.TestId.WHOLE_CLASS);
    }

    private static boolean hasSuiteMethod(Class<?> cls) {
        try {
            Method m = cls.getMethod("suite");
            return Modifier.isStatic(m.getModifiers());
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * A JUnit 3 TestCase whose suite() only returns {@code new TestSuite(ItsClass.class)}: JUnit runs
     * the same tests as without the method, so its methods are listed one by one like any TestCase's
     * (docs/init.md, test discovery). Decided on the class file (SuiteShape), without initialising it.
     */
    private static boolean defaultSuite(Class<?> cls) {
        if (!junit.framework.TestCase.class.isAssignableFrom(cls)) return false;
        String file = cls.getName().replace('.', '/') + ".class";
        try (java.io.InputStream in = cls.getClassLoader().getResourceAsStream(file)) {
            if (in == null) return false;
            byte[] bytes = in.readAllBytes();
            @SuppressWarnings("unchecked")
            java.util.function.BiPredicate<String, byte[]> shape = (java.util.function.BiPredicate<String, byte[]>)
                WarmLoader.instrumentClass("patchval.instrument.SuiteShape").getConstructor().newInstance();
            return shape.test(cls.getName().replace('.', '/'), bytes);
        } catch (Exception | LinkageError e) {
            return false; // ASM missing or an unreadable class file: the class stays one whole test
        }
    }

    private static boolean hasUsableConstructor(Class<?> cls) {
        for (Constructor<?> c : cls.getConstructors()) {
            Class<?>[] p = c.getParameterTypes();
            if (p.length == 0 || (p.length == 1 && p[0] == String.class)) return true;
        }
        return false;
    }
}
