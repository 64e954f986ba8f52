// patchval agent: PlainMain owns the plain technique's test process: a fresh JVM whose system class
// path holds the patched classes, the project and JUnit; it runs the given tests in order on that
// class path (no fresh loaders) and stops at the first failure.
package patchval.agent;

import java.io.PrintStream;

public final class PlainMain {
    private PlainMain() {}

    /** Arguments: test ids {@code Class#method}. Prints START/RESULT lines, then DONE if all passed. */
    public static void main(String[] args) {
        PrintStream protocol = System.out;
        // What the tests print must not mix with the protocol.
        System.setOut(System.err);
        ExitGuard.install();
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        for (String id : args) {
            int hash = id.indexOf('#');
            String cls = id.substring(0, hash);
            String method = id.substring(hash + 1);
            protocol.println("START\t" + id);
            protocol.flush();
            String result = TestRunner.runIn(loader, cls, method);
            protocol.println("RESULT\t" + id + "\t" + result);
            protocol.flush();
            if (!result.equals("PASS") && !result.equals("SKIP")) {
                ExitGuard.halt(1);
            }
        }
        protocol.println("DONE");
        protocol.flush();
        ExitGuard.halt(0);
    }
}
