// patchval agent: Overflow owns noticing a StackOverflowError that the code under test catches:
// every exception handler of the test loaders' classes marks FLAGS when what it caught is one
// (patchval.instrument.CatchWatch), and a test run with woven classes loaded that caught one is
// reported as that overflow (TestRunner), so src/technique/schemata.rs decides it again; so is a
// failing run without them, which src/schedule/mod.rs confirms in a plain JVM.
package patchval.agent;

/**
 * How deep a recursion gets before the thread's stack is full depends on the size of its frames,
 * and woven methods' frames are not the plainly patched methods' (the stub's locals, the isolation
 * unit's call). A test that catches the overflow, or a project that turns it into a fallback,
 * can then pass or fail otherwise than under plain validation without naming the overflow in its
 * result. Not seen: an overflow caught by JDK code, or wrapped by it (reflection's
 * {@code InvocationTargetException}) and then caught as the wrapper.
 */
public final class Overflow {
    private Overflow() {}

    /**
     * Written by the instrumented handlers: slot 1 when a handler caught a StackOverflowError,
     * slot 0 (never read) otherwise. Two slots, so that no handler reads or clears the mark.
     */
    public static final boolean[] FLAGS = new boolean[2];

    /** Whether an overflow was caught since the last call, by any thread; forgets it. */
    static boolean take() {
        boolean seen = FLAGS[1];
        FLAGS[1] = false;
        return seen;
    }
}
