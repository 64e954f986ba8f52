// The single JNI entry point of the agent: decodes a flat String[] request from the Rust worker
// (operation name, then length-prefixed lists) and dispatches to Agent. The operations are
// Protocol.Op's, generated from protocol.toml like the Rust side's.
package patchval.agent;

public final class Bridge {
    private Bridge() {}

    private static final class Reader {
        private final String[] a;
        private int i;

        Reader(String[] a) {
            this.a = a;
            this.i = 1;
        }

        String[] list() {
            int n = Integer.parseInt(a[i++]);
            String[] out = new String[n];
            System.arraycopy(a, i, out, 0, n);
            i += n;
            return out;
        }

        String next() {
            return a[i++];
        }
    }

    public static String[] call(String[] request) {
        try {
            Reader r = new Reader(request);
            switch (request[0]) {
                case Protocol.Op.LIST_TESTS: {
                    String[] cp = r.list();
                    return Agent.listTests(cp, r.list());
                }
                case Protocol.Op.RUN_TEST: {
                    String[] cp = r.list();
                    String cls = r.next();
                    return new String[] {Agent.runTest(cp, cls, r.next())};
                }
                case Protocol.Op.RUN_TEST_WARM: {
                    String[] cp = r.list();
                    String cls = r.next();
                    return new String[] {Agent.runTestWarm(cp, cls, r.next())};
                }
                case Protocol.Op.RUN_TEST_COVERED: {
                    String[] cp = r.list();
                    String covered = r.next();
                    String cls = r.next();
                    return Agent.runTestCovered(cp, covered, cls, r.next());
                }
                case Protocol.Op.COMPILE: {
                    String[] options = r.list();
                    String[] files = r.list();
                    String[] prunable = r.list();
                    return Agent.compile(options, files, prunable, r.list());
                }
                case Protocol.Op.PARSE_CHECK:
                    return Agent.parseCheck(r.list());
                case Protocol.Op.INSTALL_EXIT_GUARD:
                    return new String[] {String.valueOf(Agent.installExitGuard())};
                case Protocol.Op.PRIME_STACK_TRACES:
                    Agent.primeStackTraces();
                    return new String[0];
                case Protocol.Op.VERSION:
                    return new String[] {Agent.version()};
                default:
                    return new String[] {Util.line(Protocol.Result.ERROR, "unknown operation " + request[0])};
            }
        } catch (Throwable t) {
            return new String[] {Util.line(Protocol.Result.ERROR, "bridge: " + Util.clean(String.valueOf(t)))};
        }
    }
}
