// patchval agent: PlainMain owns the plain technique's test process: a fresh JVM (agent and JUnit on
// its system class path) that runs the given tests in order, each in a fresh class loader over the
// patched classes, the project and its dependencies — the same isolation as the baseline that
// decided which tests pass — and stops at the first failure.
package patchval.agent;

import java.io.PrintStream;

public final class PlainMain {
    private PlainMain() {}

    /**
     * Arguments (their marks and the lines printed are Protocol.Plain's): optionally
     * {@code --unpatched} and the unpatched program's test class path, then optionally
     * {@code --warm}, then the
     * test class path (entries separated by the path separator), then test ids
     * {@code Class#method}, each prefixed with {@code +} when it passed on the unpatched program.
     * Prints START/TOOK/RESULT lines (TOOK: the test's last run, in microseconds), then DONE if
     * all passed. A {@code +} test that fails is run once
     * more: when it passes then, it is flaky ({@code FLAKY id first-result}) and does not count.
     * When it failed both times by its own clock (Protocol.WallClock) it is checked against the
     * unpatched program as the schemata check it (src/schedule/rerun.rs): flaky at the patch's pass,
     * standing at the unpatched program's, and the machine's load ({@code LOADED id first-result},
     * not counted) when neither passes.
     * With {@code --go-on} (after {@code --warm}), every test runs once whatever fails, nothing is
     * confirmed, and DONE ends the run.
     * With {@code --warm}, the first test runs once on the unpatched program before anything else
     * ({@code WARM id}, then {@code WARMED id micros result}): the parent confirms a timeout of that
     * test this way, in a JVM warmed for it, with a budget from how long that run took.
     */
    public static void main(String[] argv) {
        PrintStream protocol = System.out;
        // What the tests print must not mix with the protocol.
        System.setOut(System.err);
        exitWithParent();
        ExitGuard.install();
        announceThread(protocol);
        String[] unpatched = null;
        if (argv.length > 1 && argv[0].equals(Protocol.Plain.UNPATCHED_OPTION)) {
            unpatched = argv[1].split(java.io.File.pathSeparator);
            argv = java.util.Arrays.copyOfRange(argv, 2, argv.length);
        }
        boolean warm = argv.length > 0 && argv[0].equals(Protocol.Plain.WARM_OPTION);
        if (warm) {
            argv = java.util.Arrays.copyOfRange(argv, 1, argv.length);
        }
        boolean goOn = argv.length > 0 && argv[0].equals(Protocol.Plain.GO_ON_OPTION);
        if (goOn) {
            argv = java.util.Arrays.copyOfRange(argv, 1, argv.length);
        }
        String[] classpath = argv[0].split(java.io.File.pathSeparator);
        String[] args = java.util.Arrays.copyOfRange(argv, 1, argv.length);
        warmUpJupiter(classpath, args);
        if (warm && unpatched != null && args.length > 0) {
            String id = idOf(args[0]);
            int hash = id.indexOf(Protocol.TestId.SEPARATOR);
            protocol.println(Util.line(Protocol.Plain.WARM, id));
            protocol.flush();
            long t = System.nanoTime();
            String result = TestRunner.runTestPlain(unpatched, id.substring(0, hash), id.substring(hash + 1));
            long micros = (System.nanoTime() - t) / 1000;
            protocol.println(Util.line(Protocol.Plain.WARMED, id, micros, result));
            protocol.flush();
        }
        for (String arg : args) {
            boolean confirm = arg.startsWith(Protocol.Plain.CONFIRM);
            String id = idOf(arg);
            int hash = id.indexOf(Protocol.TestId.SEPARATOR);
            String cls = id.substring(0, hash);
            String method = id.substring(hash + 1);
            protocol.println(Util.line(Protocol.Plain.START, id));
            protocol.flush();
            boolean injectedFailure = injectFault();
            long t = System.nanoTime();
            String result = injectedFailure
                ? Util.line(Protocol.Result.FAIL, "java.lang.AssertionError", "injected by " + Protocol.Fault.ENV)
                : TestRunner.runTestPlain(classpath, cls, method);
            if (confirm && !goOn && result.startsWith(Protocol.Result.FAIL)) {
                protocol.println(Util.line(Protocol.Plain.START, id));
                protocol.flush();
                t = System.nanoTime();
                String again = TestRunner.runTestPlain(classpath, cls, method);
                if (passed(again)) {
                    protocol.println(Util.line(Protocol.Plain.FLAKY, id, result));
                    result = again;
                } else if (unpatched != null && ownTimeout(result) && ownTimeout(again)) {
                    result = checkOwnTimeout(protocol, unpatched, classpath, id, result);
                }
            }
            protocol.println(Util.line(Protocol.Plain.TOOK, id, (System.nanoTime() - t) / 1000));
            protocol.println(Util.line(Protocol.Plain.RESULT, id, result));
            protocol.flush();
            if (!passed(result) && !goOn) {
                ExitGuard.halt(Protocol.Plain.EXIT_FAILED);
            }
        }
        protocol.println(Protocol.Plain.DONE);
        protocol.flush();
        ExitGuard.halt(Protocol.Plain.EXIT_PASSED);
    }

    /**
     * Tells the parent which native thread runs the tests (this one): the parent counts a test's
     * time on it, less the time it waited for a CPU. Nothing is said where /proc cannot tell.
     */
    private static void announceThread(PrintStream protocol) {
        try {
            java.nio.file.Path self = java.nio.file.Files.readSymbolicLink(java.nio.file.Paths.get("/proc/thread-self"));
            protocol.println(Util.line(Protocol.Plain.THREAD, self.getFileName().toString()));
            protocol.flush();
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            // the parent counts wall time then
        }
    }

    /**
     * Whether a FAIL result line is a failure by the test's own clock (Protocol.WallClock; the Rust
     * side's copy is rules::own_timeout).
     */
    static boolean ownTimeout(String result) {
        String[] f = result.split(String.valueOf(Protocol.Line.SEPARATOR), -1);
        if (f.length < 3 || !f[0].equals(Protocol.Result.FAIL)) return false;
        for (String e : Protocol.WallClock.EXCEPTIONS.split(" ")) {
            if (f[1].equals(e)) return true;
        }
        for (String m : Protocol.WallClock.MESSAGES.split("\\|")) {
            if (f[2].contains(m)) return true;
        }
        return false;
    }

    /**
     * A confirmed test failed twice by its own clock: Protocol.WallClock.ATTEMPTS times the
     * unpatched program runs it, then the patch: a pass of the patch makes the failure flaky; it
     * stands only when the unpatched program passed every attempt. Returns the result that counts;
     * LOADED and a pass when the unpatched program failed an attempt too.
     */
    private static String checkOwnTimeout(PrintStream protocol, String[] unpatched, String[] classpath, String id, String first) {
        int hash = id.indexOf(Protocol.TestId.SEPARATOR);
        String cls = id.substring(0, hash);
        String method = id.substring(hash + 1);
        boolean unpatchedFailed = false;
        for (int i = 0; i < Protocol.WallClock.ATTEMPTS; i++) {
            protocol.println(Util.line(Protocol.Plain.START, id));
            protocol.flush();
            if (!passed(TestRunner.runTestPlain(unpatched, cls, method))) unpatchedFailed = true;
            protocol.println(Util.line(Protocol.Plain.START, id));
            protocol.flush();
            String again = TestRunner.runTestPlain(classpath, cls, method);
            if (passed(again)) {
                protocol.println(Util.line(Protocol.Plain.FLAKY, id, first));
                return again;
            }
        }
        if (!unpatchedFailed) return first;
        protocol.println(Util.line(Protocol.Plain.LOADED, id, first));
        return Protocol.Result.PASS;
    }

    /** The test id of an argument, without its {@link Protocol.Plain#CONFIRM} mark. */
    private static String idOf(String arg) {
        return arg.startsWith(Protocol.Plain.CONFIRM) ? arg.substring(Protocol.Plain.CONFIRM.length()) : arg;
    }

    /** A result line that does not fail a patch. */
    private static boolean passed(String result) {
        return result.equals(Protocol.Result.PASS) || result.equals(Protocol.Result.SKIP);
    }

    /** Test runs so far, for {@link #injectFault}. */
    private static int runs;

    /**
     * Fault injection for patchval's tests, as in {@code patchval worker} (src/pool/fault.rs):
     * {@code PATCHVAL_FAULT=<sigkill|slow|fail>:<n>[:<marker file>]} kills this JVM with SIGKILL,
     * stalls it until the parent's timeout, or fails the test (returns true), at its n-th test
     * run; with a marker file once per run.
     */
    private static boolean injectFault() {
        runs++;
        String spec = System.getenv(Protocol.Fault.ENV);
        if (spec == null) return false;
        String[] parts = spec.split(":", 3);
        if (parts.length < 2 || !parts[1].equals(Integer.toString(runs))) return false;
        try {
            if (parts.length == 3 && !parts[2].isEmpty() && !new java.io.File(parts[2]).createNewFile()) {
                return false;
            }
            if (parts[0].equals(Protocol.Fault.FAIL)) return true;
            if (parts[0].equals(Protocol.Fault.SIGKILL)) {
                String pid = Long.toString(ProcessHandle.current().pid());
                new ProcessBuilder("kill", "-9", pid).start().waitFor();
            } else if (parts[0].equals(Protocol.Fault.SLOW)) {
                while (true) Thread.sleep(3_600_000L);
            }
        } catch (java.io.IOException | InterruptedException e) {
            // no fault, then
        }
        return false;
    }

    /**
     * When the first test is a JUnit 5 one, starts the Platform before the first START line: its
     * one-off start-up (hundreds of classes) belongs to the JVM's start-up allowance, not to the
     * first test's timeout (the worker's JVM is warm at that point too).
     */
    private static void warmUpJupiter(String[] classpath, String[] args) {
        try (java.net.URLClassLoader loader = Util.newLoader(classpath)) {
            if (args.length == 0 || !JupiterScan.available()) return;
            String id = idOf(args[0]);
            int hash = id.indexOf(Protocol.TestId.SEPARATOR);
            if (hash < 0) return;
            Class<?> first = Class.forName(id.substring(0, hash), false, loader);
            if (id.indexOf('(', hash) >= 0 || JupiterScan.hasTests(first)) JupiterRunner.warmUp();
        } catch (Throwable ignored) {
            // the test itself will report whatever is wrong
        }
    }

    /**
     * Ends this JVM soon after the parent (patchval) is gone, even in the middle of a test: a
     * parent killed with SIGKILL cannot stop it, and it would go on running tests in the worker's
     * project copy that the next run ({@code run --resume}) copies the project into again.
     */
    private static void exitWithParent() {
        final long parent = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
        Thread watch = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                }
                long now = ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L);
                if (now != parent) Runtime.getRuntime().halt(Protocol.Plain.EXIT_PARENT_GONE);
            }
        }, "patchval-parent-watch");
        watch.setDaemon(true);
        watch.start();
    }
}
