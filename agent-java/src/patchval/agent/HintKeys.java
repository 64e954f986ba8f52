// patchval agent: HintKeys owns the JDK's registry of rendering-hint keys (java.awt.RenderingHints.Key),
// which refuses a second live key of the same class and number: after every test run it forgets the
// keys whose class a test loader defined, as a fresh loader per test never meets them again.
package patchval.agent;

import java.lang.ref.Reference;
import java.lang.reflect.Field;
import java.util.Map;

/**
 * {@code new RenderingHints.Key(n)} records the key in a JDK-wide map under its class's name and
 * identity hash and {@code n}, and throws {@code IllegalArgumentException("... already
 * registered")} when a live key of the same class is there. With a fresh loader per test (plain
 * validation), every test defines the key's class anew, so a key made by an earlier test never
 * collides. The warm loader keeps the class, and its reset runs again the static initialiser that
 * made the key (JFreeChart's {@code KEY_SUPPRESS_SHADOW_GENERATION}): that threw whenever the key
 * of an earlier test was still alive, which depended on the garbage collector, and `init` found
 * the tests flaky or kept them on fresh loaders. Forgetting those keys after each test gives every
 * test the registry it would see with fresh loaders, whatever the collector did. The map is
 * reached through {@code --add-opens java.desktop/java.awt} (a default JVM option, in plain's JVMs
 * too); without it, or without {@code java.desktop}, nothing is done.
 */
final class HintKeys {
    private HintKeys() {}

    private static final String KEY = "java.awt.RenderingHints$Key";

    /** The registry (null when it cannot be reached), looked up at the first call. */
    private static Map<?, ?> registry;
    private static Class<?> keyClass;
    private static boolean looked;

    /** Forgets the registered keys of classes a test loader defined, and those already collected. */
    static void forgetTestLoaders() {
        Map<?, ?> map = registry();
        if (map == null) return;
        try {
            synchronized (keyClass) { // recordIdentity is static synchronized on the key class
                map.values().removeIf(HintKeys::ofTestLoader);
            }
        } catch (RuntimeException e) {
            // a security manager a test left may refuse getClassLoader: keep the registry
        }
    }

    private static boolean ofTestLoader(Object value) {
        Object key = value instanceof Reference ? ((Reference<?>) value).get() : value;
        return key == null || key.getClass().getClassLoader() instanceof TestLoader;
    }

    private static synchronized Map<?, ?> registry() {
        if (!looked) {
            looked = true;
            try {
                Class<?> c = Class.forName(KEY, false, null);
                Field f = c.getDeclaredField("identitymap");
                f.setAccessible(true);
                Object m = f.get(null);
                if (m instanceof Map) {
                    keyClass = c;
                    registry = (Map<?, ?>) m;
                }
            } catch (Throwable t) {
                // no java.desktop, another JDK's layout, or not opened: keep the registry as it is
            }
        }
        return registry;
    }
}
