// patchval agent: TestLoader is the class loader a test runs in (fresh, or the warm one): classes
// from the agent's loader first (JUnit and the agent must be shared), resources from its own class
// path first, as surefire's class path lists the project's directories and dependencies before
// the test framework's jars; the classes it defines itself pass through an instrumenter, and it
// knows whether one of them is woven.
package patchval.agent;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

class TestLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    /** Whether this loader defines classes itself, through {@link #transform}. */
    private final boolean defines;
    private final Map<String, ProtectionDomain> domains = new HashMap<>();

    /** Set once this loader has defined a woven class (one that calls Rt). */
    private volatile boolean woven;

    /** As a URLClassLoader defines classes. */
    TestLoader(URL[] urls, ClassLoader parent) {
        this(urls, parent, false);
    }

    /** With {@code defines}, the class files pass through {@link #transform}. */
    TestLoader(URL[] urls, ClassLoader parent, boolean defines) {
        super(urls, parent);
        this.defines = defines;
        if (defines) {
            // Every instrumented handler names these two (CatchWatch). Resolved through this
            // loader now, a handler that runs on a nearly full stack finds them in the JVM's
            // dictionary; resolving them there would call loadClass, overflow again, and go on
            // overflowing at every handler of the recursion.
            try {
                Class.forName(Overflow.class.getName(), true, this);
                Class.forName(StackOverflowError.class.getName(), false, this);
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("patchval: the agent's classes are missing", e);
            }
        }
    }

    /** The class file this loader defines for {@code internalName}: as read, unless overridden. */
    protected byte[] transform(String internalName, byte[] bytes) {
        return bytes;
    }

    /** Whether a class this loader defined is woven: its frames are not the plainly patched ones. */
    boolean woven() {
        return woven;
    }

    /** The internal name woven code calls, as its class files hold it. */
    private static final byte[] RT = Rt.class.getName().replace('.', '/').getBytes(StandardCharsets.UTF_8);

    /** Whether {@code bytes} hold {@link #RT} (a woven class names it in its constant pool). */
    static boolean mentionsRt(byte[] bytes) {
        outer:
        for (int i = 0; i + RT.length <= bytes.length; i++) {
            for (int j = 0; j < RT.length; j++) {
                if (bytes[i + j] != RT[j]) continue outer;
            }
            return true;
        }
        return false;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (!defines) return super.findClass(name);
        String path = name.replace('.', '/') + ".class";
        URL url = findResource(path);
        if (url == null) throw new ClassNotFoundException(name);
        byte[] bytes;
        try (InputStream in = url.openStream()) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new ClassNotFoundException(name, e);
        }
        if (!woven && mentionsRt(bytes)) woven = true;
        byte[] out;
        try {
            out = transform(name.replace('.', '/'), bytes);
        } catch (RuntimeException | LinkageError e) {
            throw new ClassFormatError("patchval could not instrument " + name + ": " + Util.describe(e));
        }
        definePackageOf(name);
        return defineClass(name, out, 0, out.length, domainOf(url, path));
    }

    private void definePackageOf(String name) {
        int dot = name.lastIndexOf('.');
        if (dot < 0) return;
        String pkg = name.substring(0, dot);
        if (getDefinedPackage(pkg) == null) {
            try {
                definePackage(pkg, null, null, null, null, null, null, null);
            } catch (IllegalArgumentException raced) {
                // defined by another thread meanwhile
            }
        }
    }

    /** The protection domain a URLClassLoader would give: the class path entry as code source. */
    private ProtectionDomain domainOf(URL url, String path) {
        String u = url.toString();
        String entry;
        if (u.startsWith("jar:")) {
            int bang = u.indexOf("!/");
            entry = u.substring(4, bang < 0 ? u.length() : bang);
        } else {
            entry = u.endsWith(path) ? u.substring(0, u.length() - path.length()) : u;
        }
        synchronized (domains) {
            return domains.computeIfAbsent(entry, e -> {
                try {
                    CodeSource cs = new CodeSource(new URL(e), (Certificate[]) null);
                    return new ProtectionDomain(cs, null, this, null);
                } catch (java.net.MalformedURLException ex) {
                    return null;
                }
            });
        }
    }

    /** A resource of the project before one of the agent's loader ({@code getResource("")} included). */
    @Override
    public URL getResource(String name) {
        URL own = findResource(name);
        return own != null ? own : super.getResource(name);
    }

    /** The project's resources, then the agent's loader's. */
    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        List<URL> all = Collections.list(findResources(name));
        ClassLoader parent = getParent();
        if (parent != null) {
            for (URL u : Collections.list(parent.getResources(name))) {
                if (!all.contains(u)) all.add(u);
            }
        }
        return Collections.enumeration(all);
    }
}
