// patchval agent: Util owns small shared helpers (message sanitising, class-path URLs, stack-frame lookup).
package patchval.agent;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;

final class Util {
    private Util() {}

    static final int MAX_MSG = 500;

    /**
     * Replaces the field separator (a tab), newlines and carriage returns by spaces and truncates
     * to {@link #MAX_MSG} chars, so the text is one field of an answer line. Never returns null.
     */
    static String clean(String s) {
        return clean(s, MAX_MSG);
    }

    static String clean(String s, int max) {
        if (s == null) return "";
        int n = Math.min(s.length(), Math.max(0, max));
        StringBuilder b = new StringBuilder(n);
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            b.append(c == Protocol.Line.SEPARATOR || c == '\n' || c == '\r' ? ' ' : c);
        }
        return b.toString();
    }

    /** An answer line: the fields (a tag first) joined by {@link Protocol.Line#SEPARATOR}. */
    static String line(Object... fields) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) b.append(Protocol.Line.SEPARATOR);
            b.append(fields[i]);
        }
        return b.toString();
    }

    /** "ClassName: message" style description of a throwable, never null. */
    static String describe(Throwable t) {
        if (t == null) return "null";
        String m;
        try {
            m = t.getMessage();
        } catch (Throwable ignored) {
            m = null;
        }
        return m == null ? t.getClass().getName() : t.getClass().getName() + ": " + m;
    }

    /** Fresh class loader over the given entries (dirs or jars), parent = the agent's own loader (TestLoader). */
    static TestLoader newLoader(String[] classpath) throws Exception {
        return new TestLoader(urls(classpath), Agent.class.getClassLoader());
    }

    /**
     * As {@link #newLoader}, with every exception handler of the classes it defines marking a
     * caught StackOverflowError ({@link Overflow}, patchval.instrument.CatchWatch).
     */
    @SuppressWarnings("unchecked")
    static TestLoader newWatchedLoader(String[] classpath) throws Exception {
        java.util.function.BiFunction<String, byte[], byte[]> watch =
            (java.util.function.BiFunction<String, byte[], byte[]>) WarmLoader
                .instrumentClass("patchval.instrument.CatchWatch").getConstructor().newInstance();
        return new TestLoader(urls(classpath), Agent.class.getClassLoader(), true) {
            @Override
            protected byte[] transform(String internalName, byte[] bytes) {
                return watch.apply(internalName, bytes);
            }
        };
    }

    /** The class path's entries as URLs, directories ending in '/' (as URLClassLoader needs them). */
    static URL[] urls(String[] classpath) throws Exception {
        int n = classpath == null ? 0 : classpath.length;
        URL[] urls = new URL[n];
        for (int i = 0; i < n; i++) {
            File f = new File(classpath[i]).getAbsoluteFile();
            String u = f.toURI().toString();
            // URLClassLoader treats a URL as a directory only if it ends with '/'.
            if (!u.endsWith("/") && !f.isFile()) {
                String lower = u.toLowerCase();
                if (!lower.endsWith(".jar") && !lower.endsWith(".zip")) u = u + "/";
            }
            urls[i] = new URL(u);
        }
        return urls;
    }

    static void closeQuietly(URLClassLoader l) {
        if (l == null) return;
        try {
            l.close();
        } catch (Throwable ignored) {
            // best effort
        }
    }

    private static final String[] FRAMEWORK_PREFIXES = {
        "java.", "javax.", "jdk.", "sun.", "com.sun.", "org.junit.", "junit.", "org.hamcrest.",
        "org.opentest4j."
    };

    /** First frame of t that lies outside JUnit/hamcrest/JDK/agent classes, as "Cls.meth(File:line)", or null. */
    static String firstUserFrame(Throwable t) {
        if (t == null) return null;
        StackTraceElement[] st;
        try {
            st = t.getStackTrace();
        } catch (Throwable ignored) {
            return null;
        }
        if (st == null) return null;
        for (StackTraceElement e : st) {
            String c = e.getClassName();
            // Frames from here on belong to whoever called the agent, not to the test.
            if (c.equals("patchval.agent.TestRunner") || c.equals("patchval.agent.Agent")
                || c.equals("patchval.agent.JupiterRunner")) {
                return null;
            }
            if (c.startsWith("patchval.agent.")) continue; // e.g. ExitGuard.checkExit, Rt.choose
            boolean fw = false;
            for (String p : FRAMEWORK_PREFIXES) {
                if (c.startsWith(p)) {
                    fw = true;
                    break;
                }
            }
            if (fw) continue;
            String file = e.getFileName();
            int line = e.getLineNumber();
            return c + "." + e.getMethodName() + "("
                + (file == null ? "Unknown Source" : line >= 0 ? file + ":" + line : file) + ")";
        }
        return null;
    }
}
