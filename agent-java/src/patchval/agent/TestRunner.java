// patchval agent: TestRunner owns running one JUnit test (Agent.runTest) in a fresh class loader and
// turning the outcome into a Protocol.Result line: PASS, SKIP, FAIL <class> <msg>, ERROR <reason>. JUnit 3/4 tests
// run with JUnitCore; JUnit 5 (Jupiter) tests are handed to JupiterRunner (the Platform launcher).
package patchval.agent;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.runner.Description;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;
import org.junit.runner.notification.Failure;
import org.junit.runner.notification.RunListener;

final class TestRunner {
    private TestRunner() {}

    /** Counts what JUnit reports; Result alone does not separate assumption failures from passes. */
    private static final class Counter extends RunListener {
        volatile int started;
        volatile int assumptionFailures;
        volatile int ignored;

        @Override
        public void testStarted(Description d) {
            started++;
        }

        @Override
        public void testAssumptionFailure(Failure f) {
            assumptionFailures++;
        }

        @Override
        public void testIgnored(Description d) {
            ignored++;
        }
    }

    /** One test in a fresh loader whose handlers mark a caught overflow (the worker's runs). */
    static String runTest(String[] classpath, String className, String methodName) {
        return runFresh(classpath, className, methodName, true);
    }

    /**
     * One test in a fresh loader that defines the class files as they are: the plain technique's
     * runs (PlainMain), which run no woven code and should be nothing but the project's own.
     */
    static String runTestPlain(String[] classpath, String className, String methodName) {
        return runFresh(classpath, className, methodName, false);
    }

    /** One test in a fresh loader, watched or not (an unwatched loader is never woven). */
    private static String runFresh(String[] classpath, String className, String methodName, boolean watch) {
        TestLoader loader;
        try {
            loader = watch ? Util.newWatchedLoader(classpath) : Util.newLoader(classpath);
        } catch (Throwable t) {
            return crashed(t);
        }
        try {
            Overflow.take();
            return watched(loader, runIn(loader, className, methodName));
        } finally {
            Util.closeQuietly(loader);
        }
    }

    /**
     * The result of a run in {@code loader}, unless a handler caught a StackOverflowError
     * ({@link Overflow}) during it. How deep a recursion gets depends on the size of its frames,
     * and the frames here are not plain's: with a woven class loaded, any result becomes a
     * failure naming the overflow, which src/technique/schemata.rs decides again with the plainly
     * patched file; without one (a patch's own compile), a failure becomes one naming the
     * overflow, which src/schedule/mod.rs confirms by plain validation's procedure, in a fresh JVM
     * whose loaders instrument nothing (a handler's store, the reset's hooks, which make frames
     * larger, and a JVM whose JIT has compiled other things than plain's would have). A pass
     * stands there: a test that catches an overflow and passes in every run (a depth limit
     * checked by the project) would otherwise cost a plain JVM for every patch.
     */
    private static String watched(TestLoader loader, String result) {
        if (!Overflow.take()) return result;
        if (result.startsWith(Protocol.Result.ERROR)) return result;
        String soe = StackOverflowError.class.getName();
        String[] parts = result.split(java.util.regex.Pattern.quote(String.valueOf(Protocol.Line.SEPARATOR)), 3);
        boolean failed = parts[0].equals(Protocol.Result.FAIL);
        if (failed && parts.length > 1 && parts[1].equals(soe)) return result;
        if (loader.woven()) {
            return Util.line(Protocol.Result.FAIL, soe,
                Util.clean("caught in a run with woven code, whose frames are not plain's (the run said: " + result + ")"));
        }
        if (!failed) return result;
        return Util.line(Protocol.Result.FAIL, soe,
            Util.clean("caught in a run whose frames are not plain's (the run said: " + result + ")"));
    }

    /** The warm loader of the last {@link #runTestWarm}, its class path, overlay marks and covered directory. */
    private static WarmLoader warm;
    /** Warm loaders made so far (warm-check's summary: a sticky class costs one more). */
    static int warmLoadersMade;
    private static String[] warmPath;
    private static String warmMarks;
    private static String warmCovered;

    /**
     * Runs one test in the warm loader over {@code classpath} (made on first use, kept while the
     * class path stays the same), after moving Reset to a new generation: every resettable class
     * is initialised again, lazily, as a fresh loader would initialise it.
     */
    static String runTestWarm(String[] classpath, String className, String methodName) {
        return runTestWarm(classpath, className, methodName, true, null);
    }

    /**
     * As {@link #runTestWarm}, in a warm loader whose classes from the directory {@code covered}
     * carry coverage probes: the result line, then {@link Cov#take}'s lines.
     */
    static String[] runTestCovered(String[] classpath, String covered, String className, String methodName) {
        Cov.clear();
        String result = runTestWarm(classpath, className, methodName, true, covered);
        List<String> lines = new java.util.ArrayList<>();
        lines.add(result);
        lines.addAll(Cov.take());
        return lines.toArray(new String[0]);
    }

    /** The enums and interfaces the present warm loader keeps (Kept), sorted; none without one. */
    static List<String> keptNames() {
        return warm == null ? List.of() : warm.keptNames();
    }

    /** With {@code reset} false, the static state of earlier tests stays (for checking the check). */
    static String runTestWarm(String[] classpath, String className, String methodName, boolean reset, String covered) {
        try {
            String marks = overlayMarks(classpath);
            if (warm == null || !java.util.Arrays.equals(classpath, warmPath) || !marks.equals(warmMarks)
                || !java.util.Objects.equals(covered, warmCovered)) {
                if (warm != null) {
                    Reset.forget(warm);
                    warm.close();
                }
                warm = null;
                warm = WarmLoader.over(classpath, covered);
                warmLoadersMade++;
                warmPath = classpath.clone();
                warmMarks = marks;
                warmCovered = covered;
            }
        } catch (Throwable t) {
            return crashed(t);
        }
        if (reset) Reset.nextGeneration();
        Reset.takeSticky();
        Reset.takePatchedInInit();
        Overflow.take();
        String result = watched(warm, runIn(warm, className, methodName));
        boolean sticky = Reset.takeSticky() | Reset.takePatchedInInit() | warm.keptChanged();
        if (reset && (sticky || leftBehind())) {
            // The test initialised an enum or interface whose state no reset puts back (or whose
            // initialiser ran a patched location, so its state belongs to this round's patch; or
            // it changed a kept one's: Kept), or a thread it started still runs code of the warm
            // loader's classes (it could write the static state the next test starts from). The
            // next test gets a new warm loader, in which that class is initialised afresh and
            // which that thread cannot reach.
            Reset.forget(warm);
            Util.closeQuietly(warm);
            warm = null;
        }
        return result;
    }

    /**
     * Whether a thread the test left running (one interruptLeftovers interrupted) is still alive,
     * given a moment to end.
     */
    private static boolean leftBehind() {
        try {
            long deadline = System.nanoTime() + 50_000_000L;
            for (Thread t : leftovers) {
                long left = (deadline - System.nanoTime()) / 1_000_000L;
                if (left > 0) t.join(left);
                if (t.isAlive()) return true;
            }
            return false;
        } catch (Throwable t) {
            return true;
        }
    }

    /**
     * What the {@link Protocol.Overlay#MARK} files of the class path's directories say (the worker
     * writes one into every overlay it compiles, src/compile.rs): a new compile into the same
     * directory needs a new warm loader.
     */
    private static String overlayMarks(String[] classpath) {
        StringBuilder b = new StringBuilder();
        for (String entry : classpath) {
            java.io.File mark = new java.io.File(entry, Protocol.Overlay.MARK);
            if (!mark.isFile()) continue;
            try {
                b.append(new String(java.nio.file.Files.readAllBytes(mark.toPath()), java.nio.charset.StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                b.append("unreadable ").append(System.nanoTime());
            }
            b.append('\n');
        }
        return b.toString();
    }

    /** The answer when running a test failed in the runner itself, never a test failure. */
    private static String crashed(Throwable t) {
        try {
            return error("runTest crashed: " + Util.describe(t));
        } catch (Throwable t2) {
            return Util.line(Protocol.Result.ERROR, "runTest crashed");
        }
    }

    /**
     * Runs one test with classes from {@code loader} (a fresh one per round, or the warm one), which
     * a system class loader of its own asks too while it runs (SystemLoader), and puts back the JVM-wide
     * state it changed (Globals) whatever happened.
     */
    static String runIn(ClassLoader loader, String className, String methodName) {
        leftovers = new java.util.ArrayList<>();
        Globals globals = Globals.save();
        ClassLoader system = SystemLoader.enter(loader);
        try {
            return runInLoader(loader, className, methodName);
        } finally {
            SystemLoader.leave(system);
            globals.restore();
        }
    }

    private static String runInLoader(ClassLoader loader, String className, String methodName) {
        Thread th = Thread.currentThread();
        ClassLoader saved = th.getContextClassLoader();
        try {
            Class<?> cls;
            try {
                cls = Class.forName(className, false, loader);
            } catch (ClassNotFoundException e) {
                return error("class not found: " + className);
            } catch (LinkageError e) {
                return error("cannot load " + className + ": " + Util.describe(e));
            }
            Reset.prepare(cls);
            boolean whole = methodName == null || methodName.isEmpty() || Protocol.TestId.WHOLE_CLASS.equals(methodName);
            try {
                if (isJupiter(cls, whole ? null : methodName)) {
                    try {
                        return JupiterRunner.run(loader, cls, whole ? null : methodName);
                    } finally {
                        interruptLeftovers(loader);
                    }
                }
            } catch (LinkageError e) {
                return error("cannot inspect " + className + ": " + Util.describe(e));
            }
            if (!whole) {
                try {
                    if (!hasPublicMethod(cls, methodName)) {
                        return error("no such method: " + className + Protocol.TestId.SEPARATOR + methodName);
                    }
                } catch (LinkageError e) {
                    return error("cannot inspect " + className + ": " + Util.describe(e));
                }
            }
            Request req = whole ? Request.aClass(cls) : Request.method(cls, methodName);
            th.setContextClassLoader(loader);
            Counter counter = new Counter();
            Result result;
            try {
                JUnitCore core = new JUnitCore();
                core.addListener(counter);
                result = core.run(req);
            } catch (Throwable t) {
                // Something escaped JUnit itself (e.g. OOM while reporting): still the code under test's fault.
                return fail(t);
            } finally {
                th.setContextClassLoader(saved);
                interruptLeftovers(loader);
            }
            return classify(result, counter, className + Protocol.TestId.SEPARATOR + (whole ? Protocol.TestId.WHOLE_CLASS : methodName));
        } catch (Throwable t) {
            return crashed(t);
        } finally {
            th.setContextClassLoader(saved);
        }
    }

    /**
     * JUnit 5 (Jupiter) target: a method id with a parameter list, a method that is a Jupiter test,
     * or a whole class with Jupiter tests and nothing JUnit 3/4 would run. Everything else goes to JUnitCore.
     */
    private static boolean isJupiter(Class<?> cls, String methodName) {
        if (!JupiterScan.available()) return false;
        if (methodName != null) {
            return methodName.indexOf('(') >= 0 || JupiterScan.hasTestMethod(cls, methodName);
        }
        if (cls.isAnnotationPresent(org.junit.runner.RunWith.class)
            || junit.framework.Test.class.isAssignableFrom(cls)) {
            return false;
        }
        for (Method m : cls.getMethods()) {
            if (m.isAnnotationPresent(org.junit.Test.class)) return false;
        }
        return JupiterScan.hasTests(cls);
    }

    private static String classify(Result result, Counter counter, String target) {
        List<Failure> failures = result.getFailures();
        if (!failures.isEmpty()) {
            Failure f = failures.get(0);
            Throwable ex = f.getException();
            String msg = ex == null ? null : safeMessage(ex);
            Description d = f.getDescription();
            if (d != null && "initializationError".equals(d.getMethodName()) && ex != null
                && ex.getClass() == Exception.class && msg != null && msg.startsWith("No tests found matching")) {
                return error("not a test method: " + target);
            }
            if (ex != null && ex.getClass().getName().equals("org.junit.runners.model.InvalidTestClassError")) {
                return error(msg); // structural problem of the test class (no runnable methods, bad signatures...)
            }
            return fail(ex);
        }
        int passed = counter.started - counter.assumptionFailures;
        if (passed > 0) return Protocol.Result.PASS;
        if (counter.ignored > 0 || counter.assumptionFailures > 0 || result.getIgnoreCount() > 0) return Protocol.Result.SKIP;
        return error("no tests were run");
    }

    static String fail(Throwable ex) {
        if (ex == null) return Util.line(Protocol.Result.FAIL, "unknown", "");
        String frame = Util.firstUserFrame(ex);
        String msg = safeMessage(ex);
        Throwable cause = ex.getCause();
        if (msg.isEmpty() && cause != null && cause != ex) msg = "caused by " + Util.describe(cause);
        for (int depth = 0; frame == null && cause != null && depth < 5; depth++) {
            frame = Util.firstUserFrame(cause);
            cause = cause.getCause();
        }
        String text;
        if (frame == null) {
            text = Util.clean(msg);
        } else {
            String fr = Util.clean(" @ " + frame);
            text = Util.clean(msg, Util.MAX_MSG - fr.length()) + fr;
            if (text.length() > Util.MAX_MSG) text = text.substring(0, Util.MAX_MSG);
        }
        return Util.line(Protocol.Result.FAIL, Util.clean(ex.getClass().getName()), text);
    }

    private static String error(String reason) {
        return Util.line(Protocol.Result.ERROR, Util.clean(reason));
    }

    private static String safeMessage(Throwable t) {
        try {
            String m = t.getMessage();
            return m == null ? "" : m;
        } catch (Throwable e) {
            return "";
        }
    }

    private static boolean hasPublicMethod(Class<?> cls, String name) {
        for (Method m : cls.getMethods()) {
            if (m.getName().equals(name)) return true;
        }
        return false;
    }

    /** The threads interruptLeftovers interrupted after the last test run. */
    private static java.util.List<Thread> leftovers = new java.util.ArrayList<>();

    /**
     * Best effort: interrupt threads the test left running (they inherited our loader as context
     * loader), and keep them in {@link #leftovers}.
     */
    private static void interruptLeftovers(ClassLoader loader) {
        try {
            Thread me = Thread.currentThread();
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t != me && t.isAlive() && t.getContextClassLoader() == loader) {
                    t.interrupt();
                    leftovers.add(t);
                }
            }
        } catch (Throwable ignored) {
            // best effort
        }
    }
}
