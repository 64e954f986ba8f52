// patchval agent: JupiterRunner owns JUnit 5 (Jupiter) tests: listing them through the Platform's
// discovery and running one selected method (all its invocations) through the Platform launcher.
// Only called when JupiterScan.available(); the Launcher is created once per JVM and reused.
package patchval.agent;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.engine.JupiterTestEngine;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;
import org.junit.platform.engine.DiscoverySelector;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherConfig;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

final class JupiterRunner {
    private JupiterRunner() {}

    private static volatile Launcher launcher;

    /**
     * One Launcher for the JVM: only the Jupiter engine (no ServiceLoader lookups, so engines or
     * listeners in the project's jars are not picked up twice), created with the agent's own loader
     * as context loader. Each request still reads junit-platform.properties through the context
     * loader current at request time, i.e. the fresh loader of the run.
     */
    private static Launcher launcher() {
        Launcher l = launcher;
        if (l != null) return l;
        synchronized (JupiterRunner.class) {
            if (launcher == null) {
                Thread th = Thread.currentThread();
                ClassLoader saved = th.getContextClassLoader();
                try {
                    th.setContextClassLoader(JupiterRunner.class.getClassLoader());
                    LauncherConfig cfg = LauncherConfig.builder()
                        .enableTestEngineAutoRegistration(false)
                        .enableTestExecutionListenerAutoRegistration(false)
                        .enablePostDiscoveryFilterAutoRegistration(false)
                        .enableLauncherDiscoveryListenerAutoRegistration(false)
                        .enableLauncherSessionListenerAutoRegistration(false)
                        .addTestEngines(new JupiterTestEngine())
                        .build();
                    launcher = LauncherFactory.create(cfg);
                } finally {
                    th.setContextClassLoader(saved);
                }
            }
            return launcher;
        }
    }

    /**
     * Loads the launcher's and the engine's discovery and execution machinery by running an empty
     * request, so that a fresh JVM (plain runs) does not charge it to its first test's timeout.
     */
    static void warmUp() {
        launcher().execute(LauncherDiscoveryRequestBuilder.request().build());
    }

    private static LauncherDiscoveryRequest request(DiscoverySelector sel) {
        return LauncherDiscoveryRequestBuilder.request().selectors(sel).build();
    }

    /**
     * The non-disabled Jupiter test methods of cls and its @Nested classes, as {class, method}
     * where method is "name" for a method without parameters and "name(type,type)" otherwise.
     * The caller has set the context class loader to cls's loader.
     */
    static List<String[]> list(Class<?> cls) {
        TestPlan plan = launcher().discover(request(DiscoverySelectors.selectClass(cls)));
        TreeSet<String> seen = new TreeSet<>();
        List<String[]> out = new ArrayList<>();
        List<TestIdentifier> todo = new ArrayList<>(plan.getRoots());
        while (!todo.isEmpty()) {
            TestIdentifier id = todo.remove(todo.size() - 1);
            todo.addAll(plan.getChildren(id));
            Optional<TestSource> src = id.getSource();
            if (!src.isPresent() || !(src.get() instanceof MethodSource)) continue;
            MethodSource ms = (MethodSource) src.get();
            Class<?> owner;
            Method m;
            try {
                owner = Class.forName(ms.getClassName(), false, cls.getClassLoader());
                m = ms.getJavaMethod();
            } catch (Throwable t) {
                continue;
            }
            if (disabled(owner, m)) continue;
            String method = methodId(m);
            if (seen.add(owner.getName() + "#" + method)) out.add(new String[] {owner.getName(), method});
        }
        return out;
    }

    /** "name" or "name(java.lang.String,int[])": what selectMethod needs to find exactly this method. */
    static String methodId(Method m) {
        Class<?>[] ps = m.getParameterTypes();
        if (ps.length == 0) return m.getName();
        StringBuilder b = new StringBuilder(m.getName()).append('(');
        for (int i = 0; i < ps.length; i++) {
            if (i > 0) b.append(',');
            b.append(ps[i].getTypeName());
        }
        return b.append(')').toString();
    }

    /** @Disabled on the method, its class, or a class enclosing a @Nested class. */
    private static boolean disabled(Class<?> owner, Method m) {
        if (AnnotationSupport.isAnnotated(m, Disabled.class)) return true;
        for (Class<?> c = owner; c != null; c = JupiterScan.isNested(c) ? c.getEnclosingClass() : null) {
            if (AnnotationSupport.isAnnotated(c, Disabled.class)) return true;
        }
        return false;
    }

    /** What the launcher reports, in the order it happens. */
    private static final class Listener implements TestExecutionListener {
        int passed;
        int aborted;
        int skipped;
        int methodsDone;
        TestIdentifier failedId;
        Throwable failure;
        boolean failed;

        @Override
        public synchronized void executionSkipped(TestIdentifier id, String reason) {
            skipped++;
        }

        @Override
        public synchronized void executionFinished(TestIdentifier id, TestExecutionResult r) {
            switch (r.getStatus()) {
                case SUCCESSFUL:
                    if (id.isTest()) {
                        passed++;
                    } else if (id.getSource().isPresent() && id.getSource().get() instanceof MethodSource) {
                        methodsDone++; // a template/factory container that ran (maybe with no invocations)
                    }
                    break;
                case ABORTED:
                    aborted++;
                    break;
                default:
                    if (!failed) {
                        failed = true;
                        failedId = id;
                        failure = r.getThrowable().orElse(null);
                    }
            }
        }
    }

    /**
     * Runs one Jupiter test method of cls (every invocation of a parameterized/repeated/factory
     * method), or the whole class when methodSpec is null, with loader as context class loader.
     */
    static String run(ClassLoader loader, Class<?> cls, String methodSpec) {
        DiscoverySelector sel;
        String target = cls.getName() + Protocol.TestId.SEPARATOR + (methodSpec == null ? Protocol.TestId.WHOLE_CLASS : methodSpec);
        if (methodSpec == null) {
            sel = DiscoverySelectors.selectClass(cls);
        } else {
            Method m;
            try {
                m = findMethod(cls, methodSpec);
            } catch (LinkageError | RuntimeException e) {
                return Util.line(Protocol.Result.ERROR, Util.clean("cannot resolve " + target + ": " + Util.describe(e)));
            }
            if (m == null) return Util.line(Protocol.Result.ERROR, Util.clean("no such method: " + target));
            sel = DiscoverySelectors.selectMethod(cls, m);
        }
        Launcher l = launcher();
        Thread th = Thread.currentThread();
        ClassLoader saved = th.getContextClassLoader();
        Listener lis = new Listener();
        try {
            th.setContextClassLoader(loader);
            l.execute(request(sel), lis);
        } catch (Throwable t) {
            return TestRunner.fail(t);
        } finally {
            th.setContextClassLoader(saved);
        }
        if (lis.failed) {
            if (lis.failedId != null && !lis.failedId.getParentId().isPresent()) {
                // The engine itself failed (discovery or configuration): not the code under test.
                return Util.line(Protocol.Result.ERROR, Util.clean("JUnit Jupiter failed on " + target + ": " + Util.describe(lis.failure)));
            }
            return TestRunner.fail(lis.failure);
        }
        if (lis.passed > 0) return Protocol.Result.PASS;
        if (lis.skipped > 0 || lis.aborted > 0) return Protocol.Result.SKIP;
        if (lis.methodsDone > 0) return Protocol.Result.PASS;
        return Util.line(Protocol.Result.ERROR, Util.clean("no tests were run: " + target));
    }

    /** "name" (no parameters; else the only Jupiter test method of that name) or "name(type,...)". */
    private static Method findMethod(Class<?> cls, String spec) {
        if (spec.indexOf('(') >= 0) {
            // Compared with the id the lister wrote, not resolved by type names: JUnit would load
            // those through the context class loader, which cannot see the project's test classes
            // (a parameter of a type the tests declare).
            List<Method> same = ReflectionSupport.findMethods(cls,
                m -> methodId(m).equals(spec), HierarchyTraversalMode.BOTTOM_UP);
            return same.isEmpty() ? null : same.get(0);
        }
        Optional<Method> noArgs = ReflectionSupport.findMethod(cls, spec);
        if (noArgs.isPresent()) return noArgs.get();
        List<Method> named = ReflectionSupport.findMethods(cls,
            m -> m.getName().equals(spec) && JupiterScan.isTestable(m), HierarchyTraversalMode.TOP_DOWN);
        return named.size() == 1 ? named.get(0) : null;
    }
}
