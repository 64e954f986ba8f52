// The single JNI entry point of the agent: decodes a flat String[] request from the Rust worker
// (operation name, then length-prefixed lists) and dispatches to Agent.
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
                case "listTests": {
                    String[] cp = r.list();
                    return Agent.listTests(cp, r.list());
                }
                case "runTest": {
                    String[] cp = r.list();
                    String cls = r.next();
                    return new String[] {Agent.runTest(cp, cls, r.next())};
                }
                case "runTestWarm": {
                    String[] cp = r.list();
                    String cls = r.next();
                    return new String[] {Agent.runTestWarm(cp, cls, r.next())};
                }
                case "runTestCovered": {
                    String[] cp = r.list();
                    String covered = r.next();
                    String cls = r.next();
                    return Agent.runTestCovered(cp, covered, cls, r.next());
                }
                case "compile": {
                    String[] options = r.list();
                    return Agent.compile(options, r.list());
                }
                case "parseCheck":
                    return Agent.parseCheck(r.list());
                case "installExitGuard":
                    return new String[] {String.valueOf(Agent.installExitGuard())};
                case "version":
                    return new String[] {Agent.version()};
                default:
                    return new String[] {"ERROR\tunknown operation " + request[0]};
            }
        } catch (Throwable t) {
            return new String[] {"ERROR\tbridge: " + Util.clean(String.valueOf(t))};
        }
    }
}
