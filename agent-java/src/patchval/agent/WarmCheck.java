// patchval agent: WarmCheck owns the side-by-side check of the warm loader against fresh loaders:
// it runs a list of tests both ways in one JVM and prints every test whose result differs, with
// the time each way took.
package patchval.agent;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * {@code java -cp agent.jar:junit... patchval.agent.WarmCheck CLASSPATH TESTS_FILE [ROUNDS [no-reset]]}:
 * TESTS_FILE holds one {@code Class#method} per line; {@code no-reset} keeps the static state of
 * earlier tests in the warm loader (what a warm loader without Reset would show). Each round runs every test in a fresh loader,
 * then every test in the warm loader; the last round's times are printed (earlier rounds warm the
 * JIT for both). Prints {@code DIFF id fresh-result warm-result} lines, then a summary.
 */
public final class WarmCheck {
    private WarmCheck() {}

    public static void main(String[] argv) throws Exception {
        PrintStream out = System.out;
        System.setOut(System.err);
        ExitGuard.install();
        String[] classpath = argv[0].split(java.io.File.pathSeparator);
        List<String> tests = new ArrayList<>();
        for (String l : Files.readAllLines(Paths.get(argv[1]))) {
            if (!l.isBlank()) tests.add(l.trim());
        }
        int rounds = argv.length > 2 ? Integer.parseInt(argv[2]) : 1;
        boolean reset = !(argv.length > 3 && argv[3].equals(Protocol.WarmCheck.NO_RESET));
        String[] fresh = new String[tests.size()];
        String[] warm = new String[tests.size()];
        long[] freshNs = new long[tests.size()];
        long[] warmNs = new long[tests.size()];
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < tests.size(); i++) {
                String[] id = split(tests.get(i));
                long t = System.nanoTime();
                fresh[i] = TestRunner.runTest(classpath, id[0], id[1]);
                freshNs[i] = System.nanoTime() - t;
            }
            for (int i = 0; i < tests.size(); i++) {
                String[] id = split(tests.get(i));
                long t = System.nanoTime();
                warm[i] = TestRunner.runTestWarm(classpath, id[0], id[1], reset, null);
                warmNs[i] = System.nanoTime() - t;
            }
        }
        int diffs = 0;
        for (int i = 0; i < tests.size(); i++) {
            if (!kind(fresh[i]).equals(kind(warm[i]))) {
                diffs++;
                out.println(Util.line(Protocol.WarmCheck.DIFF, tests.get(i), Util.clean(fresh[i]), Util.clean(warm[i])));
            }
        }
        out.printf("tests %d, differing %d, reinitialisations %d%n", tests.size(), diffs, Reset.takeCount());
        out.printf("fresh: total %.1f s, median %.2f ms%n", sum(freshNs) / 1e9, median(freshNs) / 1e6);
        out.printf("warm:  total %.1f s, median %.2f ms%n", sum(warmNs) / 1e9, median(warmNs) / 1e6);
        List<String> kept = Reset.pureNames();
        out.printf("initialised once (pure-init): %d classes%s%n", kept.size(),
            kept.isEmpty() ? "" : ": " + String.join(" ", kept));
        List<String> enums = TestRunner.keptNames();
        out.printf("warm loaders: %d made; enums and interfaces kept: %d%s%n", TestRunner.warmLoadersMade, enums.size(),
            enums.isEmpty() ? "" : ": " + String.join(" ", enums));
        out.flush();
        ExitGuard.halt(diffs == 0 ? Protocol.WarmCheck.EXIT_SAME : Protocol.WarmCheck.EXIT_DIFFER);
    }

    private static String[] split(String id) {
        int hash = id.indexOf(Protocol.TestId.SEPARATOR);
        return new String[] {id.substring(0, hash), id.substring(hash + 1)};
    }

    /** PASS, SKIP, FAIL or ERROR: what decides a verdict (messages may name generated frames). */
    private static String kind(String result) {
        int tab = result.indexOf(Protocol.Line.SEPARATOR);
        return tab < 0 ? result : result.substring(0, tab);
    }

    private static long sum(long[] a) {
        long s = 0;
        for (long x : a) s += x;
        return s;
    }

    private static double median(long[] a) {
        if (a.length == 0) return 0;
        long[] b = a.clone();
        Arrays.sort(b);
        return b[b.length / 2];
    }
}
