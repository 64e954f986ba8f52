// patchval agent: Cov owns per-test method coverage, recorded at init in a warm loader whose
// project classes carry one probe per method (patchval.instrument.CoverageProbes): which methods a
// test executed, which ran inside the initialiser of a class no reset re-runs, and which source
// lines it executed (for fault localization).
package patchval.agent;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every probed method body has an id ({@link #idOf}, by class and method name: the overloads of a
 * name share one) and starts with {@link #hit}. The hits of one test are taken with {@link #take}.
 * A hit inside the static initialiser of an enum or interface (which the warm loader runs once,
 * for whichever test touches the class first, where a fresh loader runs it in every test that
 * does) is also recorded as <em>global</em> (Reset.initDepth, kept by the marks ResetTransformer
 * puts around those initialisers): selection treats such a method as executed by every test.
 */
public final class Cov {
    private Cov() {}

    /**
     * One flag per id, in arrays of fixed size: a probe inlined by the JIT is then one store
     * into a constant array at a constant index, with no bounds check left.
     */
    private static final int METHODS = 1 << 20;
    private static final int LINES = 1 << 22;
    private static final boolean[] hits = new boolean[METHODS];
    private static final boolean[] global = new boolean[METHODS];
    private static final List<String> names = new ArrayList<>();
    private static final Map<String, Integer> ids = new HashMap<>();
    /** Names already sent to the worker (ids below this one). */
    private static int reported;
    /** The same for source lines ({@code owner.method:line}), numbered apart from the methods. */
    private static final boolean[] lineHits = new boolean[LINES];
    private static final List<String> lineNames = new ArrayList<>();
    private static final Map<String, Integer> lineIds = new HashMap<>();
    private static int linesReported;

    /** The id of {@code owner.method} (internal class name), made on first use. */
    public static synchronized int idOf(String member) {
        Integer known = ids.get(member);
        if (known != null) return known;
        int id = names.size();
        if (id >= METHODS) throw new IllegalStateException("more methods than coverage can record");
        names.add(member);
        ids.put(member, id);
        return id;
    }

    /** The id of source line {@code owner.method:line}, made on first use. */
    public static synchronized int lineIdOf(String line) {
        Integer known = lineIds.get(line);
        if (known != null) return known;
        int id = lineNames.size();
        if (id >= LINES) throw new IllegalStateException("more lines than coverage can record");
        lineNames.add(line);
        lineIds.put(line, id);
        return id;
    }

    /** The probe at a source line's first instruction. */
    public static void line(int id) {
        lineHits[id] = true;
    }

    public static void hit(int id) {
        hits[id] = true;
        if (Reset.initDepth > 0) global[id] = true;
    }

    /** The probe of an enum's or interface's own static initialiser: always global. */
    public static void hitGlobal(int id) {
        hits[id] = true;
        global[id] = true;
    }

    /** Forgets the hits so far (before a test). */
    static synchronized void clear() {
        java.util.Arrays.fill(hits, 0, names.size(), false);
        java.util.Arrays.fill(lineHits, 0, lineNames.size(), false);
    }

    /** What the hits were when a pure-init initialiser began; see {@link #beginInit}. */
    static final class Capture {
        final boolean[] hitsBefore;
        final boolean[] linesBefore;

        Capture(boolean[] hitsBefore, boolean[] linesBefore) {
            this.hitsBefore = hitsBefore;
            this.linesBefore = linesBefore;
        }
    }

    /** Per Reset id of a pure-init class: the method ids and line ids its initialiser executed. */
    private static final Map<Integer, int[][]> initHits = new HashMap<>();
    /** An initialiser is being recorded (by any thread). */
    private static boolean capturing;

    /**
     * The JVM starts the initialiser of a pure-init class (Reset.jvmInit), which the warm loader
     * runs once, where a fresh loader runs it in every test that touches the class: the hits so far
     * are put aside, so that the ones made until {@link #endInit} are the initialiser's. Null (no
     * record) while another initialiser is being recorded.
     */
    static synchronized Capture beginInit() {
        if (capturing) return null;
        capturing = true;
        Capture c = new Capture(java.util.Arrays.copyOf(hits, names.size()),
            java.util.Arrays.copyOf(lineHits, lineNames.size()));
        clear();
        return c;
    }

    /**
     * The initialiser ended: what was hit since {@link #beginInit} is recorded for Reset id
     * {@code id} (none when negative: it failed, and a failed class is initialised again anyway),
     * and the hits put aside are added back. Hits of other threads in between count as the
     * initialiser's, which can only select more tests.
     */
    static synchronized void endInit(Capture c, int id) {
        if (id >= 0) initHits.put(id, new int[][] {set(hits, names.size()), set(lineHits, lineNames.size())});
        for (int i = 0; i < c.hitsBefore.length; i++) hits[i] |= c.hitsBefore[i];
        for (int i = 0; i < c.linesBefore.length; i++) lineHits[i] |= c.linesBefore[i];
        capturing = false;
    }

    /**
     * A test touched pure-init class {@code id} (Reset id), which a fresh loader would initialise
     * there: its initialiser's hits count for this test, as global ones inside an enum's or
     * interface's initialiser. False when the initialiser was not recorded.
     */
    static synchronized boolean replay(int id) {
        int[][] r = initHits.get(id);
        if (r == null) return false;
        boolean inInit = Reset.initDepth > 0;
        for (int i : r[0]) {
            hits[i] = true;
            if (inInit) global[i] = true;
        }
        for (int i : r[1]) lineHits[i] = true;
        return true;
    }

    private static int[] set(boolean[] flags, int size) {
        int n = 0;
        for (int i = 0; i < size; i++) if (flags[i]) n++;
        int[] out = new int[n];
        n = 0;
        for (int i = 0; i < size; i++) if (flags[i]) out[n++] = i;
        return out;
    }

    /**
     * The lines that follow a covered test's result: {@code cov\t<ids>} (comma-separated), then
     * {@code global\t<ids>} (every global id so far), then {@code name\t<id>\t<member>} for each id
     * not reported before; then {@code lines\t<ids>} and {@code line\t<id>\t<owner.method:line>}
     * the same way for source lines. Clears the hits.
     */
    static synchronized List<String> take() {
        List<String> out = new ArrayList<>();
        out.add(Util.line(Protocol.Coverage.COVERED, list(hits, names.size(), true)));
        out.add(Util.line(Protocol.Coverage.GLOBAL, list(global, names.size(), false)));
        for (int id = reported; id < names.size(); id++) out.add(Util.line(Protocol.Coverage.NAME, id, names.get(id)));
        reported = names.size();
        out.add(Util.line(Protocol.Coverage.LINES, list(lineHits, lineNames.size(), true)));
        for (int id = linesReported; id < lineNames.size(); id++) {
            out.add(Util.line(Protocol.Coverage.LINE_NAME, id, lineNames.get(id)));
        }
        linesReported = lineNames.size();
        return out;
    }

    private static String list(boolean[] flags, int size, boolean clear) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < size; i++) {
            if (!flags[i]) continue;
            if (b.length() > 0) b.append(',');
            b.append(i);
            if (clear) flags[i] = false;
        }
        return b.toString();
    }
}
