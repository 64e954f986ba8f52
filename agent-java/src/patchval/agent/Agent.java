// patchval agent: Agent is the JNI-facing facade; every public static method here is called from the Rust worker.
// All methods take/return only String, String[], int, boolean, never throw, and never print to System.out.
package patchval.agent;

public final class Agent {
    private Agent() {}

    /**
     * "<class>#<method>", "<class>#*" (run whole class) or "!<class>\t<reason>" (load failure), sorted.
     * JUnit 5 methods with parameters are "<class>#<method>(<type>,<type>)" (e.g. "a.BTest$Inner#m(java.lang.String,int)"),
     * @Nested classes by their binary name.
     */
    public static String[] listTests(String[] classpath, String[] classNames) {
        try {
            return TestLister.listTests(classpath, classNames);
        } catch (Throwable t) {
            return new String[] {Util.line(Protocol.List.LOAD_ERROR, safe("listTests crashed", t))};
        }
    }

    /**
     * "PASS", "SKIP", "FAIL\t<exception class>\t<message>" or "ERROR\t<reason>"; methodName "*" = whole class.
     * A JUnit 5 method runs with all its invocations (parameterized, repeated): PASS only if none failed.
     */
    public static String runTest(String[] classpath, String className, String methodName) {
        try {
            return TestRunner.runTest(classpath, className, methodName);
        } catch (Throwable t) {
            return Util.line(Protocol.Result.ERROR, safe("runTest crashed", t));
        }
    }

    /**
     * As {@link #runTest}, in the warm loader over {@code classpath} (kept while the class path
     * and its overlay's compile stay the same) after Reset puts static state back.
     */
    public static String runTestWarm(String[] classpath, String className, String methodName) {
        try {
            return TestRunner.runTestWarm(classpath, className, methodName);
        } catch (Throwable t) {
            return Util.line(Protocol.Result.ERROR, safe("runTest crashed", t));
        }
    }

    /**
     * As {@link #runTestWarm}, with coverage probes in the classes of directory {@code covered}:
     * the result, then the coverage lines of {@link Cov#take}.
     */
    public static String[] runTestCovered(String[] classpath, String covered, String className, String methodName) {
        try {
            return TestRunner.runTestCovered(classpath, covered, className, methodName);
        } catch (Throwable t) {
            return new String[] {Util.line(Protocol.Result.ERROR, safe("runTest crashed", t))};
        }
    }

    /** {"OK"|"ERRORS"|"PRUNED", "<file>\t<line>\t<col>\t<start>\t<end>\t<message>"...}, errors only. */
    public static String[] compile(String[] options, String[] files, String[] prunable, String[] unused) {
        try {
            return JavacBridge.compile(options, files, prunable, unused);
        } catch (Throwable t) {
            return new String[] {Protocol.Compile.ERRORS, JavacBridge.unplaced(safe("compiler crashed", t))};
        }
    }

    /** Syntax check only (no class files written); same result format as {@link #compile}. */
    public static String[] parseCheck(String[] files) {
        try {
            return JavacBridge.parseCheck(files);
        } catch (Throwable t) {
            return new String[] {Protocol.Compile.ERRORS, JavacBridge.unplaced(safe("parser crashed", t))};
        }
    }

    /** Installs a SecurityManager that blocks System.exit; false if the JVM refuses. */
    public static boolean installExitGuard() {
        try {
            return ExitGuard.install();
        } catch (Throwable t) {
            return false;
        }
    }

    /** Rt.prime: the runtime's stack-trace code run once at the bottom of the stack; never throws. */
    public static void primeStackTraces() {
        try {
            Rt.prime();
        } catch (Throwable t) {
            // Best effort: a class left to initialise later is no worse than before.
        }
    }

    public static String version() {
        return Protocol.Agent.VERSION;
    }

    private static String safe(String what, Throwable t) {
        try {
            return Util.clean(what + ": " + Util.describe(t));
        } catch (Throwable t2) {
            return what;
        }
    }
}
