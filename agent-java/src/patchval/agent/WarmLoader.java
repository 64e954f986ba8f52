// patchval agent: WarmLoader owns the class loader that is kept across test runs: it defines the
// class path's classes once, instrumented for Reset (static state back to what a fresh loader
// shows at the start of every test), and finds resources as a URLClassLoader over the same entries.
package patchval.agent;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * A TestLoader over the same entries as the fresh loader of {@link Util#newLoader} (so that
 * code asking its loader for URLs or resources sees the same), delegating classes to the agent's
 * loader first as that one does; it defines every other class from the class path after passing its bytes through the instrumenter
 * (patchval.instrument.ResetTransformer, loaded with ASM in a loader of its own so that neither is
 * visible to the project, which may bring its own ASM).
 */
final class WarmLoader extends TestLoader {
    static {
        registerAsParallelCapable();
    }

    private final BiFunction<String, byte[], byte[]> transformer;

    /** The directory whose classes get coverage probes ({@link Cov}), or null. */
    private final String covered;

    private WarmLoader(URL[] urls, ClassLoader parent, String covered) throws Exception {
        super(urls, parent, true);
        this.covered = covered;
        this.transformer = newTransformer(this);
    }

    /** The snapshots of the enums and interfaces this loader keeps (Kept). */
    private final java.util.List<Kept.Snapshot> kept = new java.util.ArrayList<>();

    void keep(Kept.Snapshot s) {
        synchronized (kept) {
            kept.add(s);
        }
    }

    /** The kept classes' names, sorted (warm-check's summary). */
    java.util.List<String> keptNames() {
        java.util.List<String> out = new java.util.ArrayList<>();
        synchronized (kept) {
            for (Kept.Snapshot s : kept) out.add(s.name);
        }
        java.util.Collections.sort(out);
        return out;
    }

    /** Whether a kept class's fields changed since their initialiser ended (the loader must go). */
    boolean keptChanged() {
        synchronized (kept) {
            return Kept.changed(kept);
        }
    }

    /** The directory whose classes get coverage probes, or null. */
    String covered() {
        return covered;
    }

    /** A warm loader over {@code classpath}, with the URLs and parent of {@link Util#newLoader}'s. */
    static WarmLoader over(String[] classpath) throws Exception {
        return over(classpath, null);
    }

    /** The same, with coverage probes in the classes of directory {@code covered} (null: none). */
    static WarmLoader over(String[] classpath, String covered) throws Exception {
        String dir = covered == null ? null : Util.urls(new String[] {covered})[0].toString();
        return new WarmLoader(Util.urls(classpath), Agent.class.getClassLoader(), dir);
    }

    /** Whether the class file of {@code internalName} that this loader defines lies in the covered directory. */
    boolean probed(String internalName) {
        if (covered == null) return false;
        URL url = findResource(internalName + ".class");
        return url != null && url.toString().startsWith(covered);
    }

    /** The class file bytes of {@code internalName} on this loader's class path, or null. */
    byte[] classBytes(String internalName) {
        URL url = findResource(internalName + ".class");
        if (url == null) return null;
        try (InputStream in = url.openStream()) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            return null;
        }
    }

    /** Called by the instrumenter for a class it decided is resettable. */
    int resettableId(String internalName, String superName) {
        return Reset.idOf(this, internalName, superName);
    }

    @Override
    protected byte[] transform(String internalName, byte[] bytes) {
        return transformer.apply(internalName, bytes);
    }

    /** The instrumenter, from the agent's jar and ASM's in a loader whose parent is the platform's. */
    @SuppressWarnings("unchecked")
    private static BiFunction<String, byte[], byte[]> newTransformer(WarmLoader loader) throws Exception {
        Class<?> t = instrumenterClass();
        Function<String, byte[]> lookup = loader::classBytes;
        BiFunction<String, String, Integer> ids = loader::resettableId;
        java.util.function.BiConsumer<String, String> stripped = (c, f) -> Reset.stripped(loader, c, f);
        java.util.function.Predicate<String> probed = loader.covered == null ? null : loader::probed;
        java.util.function.ToIntFunction<String> probeIds = loader.covered == null ? null : Cov::idOf;
        java.util.function.ToIntFunction<String> lineIds = loader.covered == null ? null : Cov::lineIdOf;
        // In the coverage pass a kept class's initialiser is recorded once and replayed (Cov.replay).
        java.util.function.Consumer<String> pure = n -> Reset.pure(loader, n);
        return (BiFunction<String, byte[], byte[]>) t
            .getConstructor(Function.class, BiFunction.class, java.util.function.BiConsumer.class,
                java.util.function.Predicate.class, java.util.function.ToIntFunction.class,
                java.util.function.ToIntFunction.class, java.util.function.Consumer.class)
            .newInstance(lookup, ids, stripped, probed, probeIds, lineIds, pure);
    }

    private static URLClassLoader instrumentLoader;

    private static Class<?> instrumenterClass() throws Exception {
        return instrumentClass("patchval.instrument.ResetTransformer");
    }

    /** A class of patchval.instrument, from the agent's jar and ASM's in a loader whose parent is the platform's. */
    static synchronized Class<?> instrumentClass(String name) throws Exception {
        if (instrumentLoader == null) {
            URL agent = Agent.class.getProtectionDomain().getCodeSource().getLocation();
            // Set by the worker's options (project::default_jvm_options); the default is the same jars.
            String asm = System.getProperty(Protocol.Property.ASM,
                "/usr/share/java/asm.jar:/usr/share/java/asm-tree.jar:/usr/share/java/asm-analysis.jar");
            String[] parts = asm.split(File.pathSeparator);
            URL[] urls = new URL[parts.length + 1];
            urls[0] = agent;
            for (int i = 0; i < parts.length; i++) urls[i + 1] = new File(parts[i]).toURI().toURL();
            instrumentLoader = new URLClassLoader("patchval-instrument", urls, ClassLoader.getPlatformClassLoader());
        }
        return Class.forName(name, true, instrumentLoader);
    }
}
