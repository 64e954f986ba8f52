// patchval agent: TestLoader is the class loader a test runs in (fresh, or the warm one): classes
// from the agent's loader first (JUnit and the agent must be shared), resources from its own class
// path first, as surefire's class path lists the project's directories and dependencies before
// the test framework's jars.
package patchval.agent;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

class TestLoader extends URLClassLoader {
    static {
        registerAsParallelCapable();
    }

    TestLoader(URL[] urls, ClassLoader parent) {
        super(urls, parent);
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
