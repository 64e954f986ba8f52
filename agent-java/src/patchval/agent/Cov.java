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

    private static final int PAGE = 4096;
    /** Fixed outer array: a page is made before any probe with an id in it is defined. */
    private static final boolean[][] hits = new boolean[4096][];
    private static final boolean[][] global = new boolean[4096][];
    private static final List<String> names = new ArrayList<>();
    private static final Map<String, Integer> ids = new HashMap<>();
    /** Names already sent to the worker (ids below this one). */
    private static int reported;
    /** The same for source lines ({@code owner.method:line}), numbered apart from the methods. */
    private static final boolean[][] lineHits = new boolean[4096][];
    private static final List<String> lineNames = new ArrayList<>();
    private static final Map<String, Integer> lineIds = new HashMap<>();
    private static int linesReported;

    /** The id of {@code owner.method} (internal class name), made on first use. */
    public static synchronized int idOf(String member) {
        Integer known = ids.get(member);
        if (known != null) return known;
        int id = names.size();
        if (id / PAGE >= hits.length) throw new IllegalStateException("more methods than coverage can record");
        if (hits[id / PAGE] == null) {
            hits[id / PAGE] = new boolean[PAGE];
            global[id / PAGE] = new boolean[PAGE];
        }
        names.add(member);
        ids.put(member, id);
        return id;
    }

    /** The id of source line {@code owner.method:line}, made on first use. */
    public static synchronized int lineIdOf(String line) {
        Integer known = lineIds.get(line);
        if (known != null) return known;
        int id = lineNames.size();
        if (id / PAGE >= lineHits.length) throw new IllegalStateException("more lines than coverage can record");
        if (lineHits[id / PAGE] == null) lineHits[id / PAGE] = new boolean[PAGE];
        lineNames.add(line);
        lineIds.put(line, id);
        return id;
    }

    /** The probe at a source line's first instruction. */
    public static void line(int id) {
        lineHits[id / PAGE][id % PAGE] = true;
    }

    public static void hit(int id) {
        hits[id / PAGE][id % PAGE] = true;
        if (Reset.initDepth > 0) global[id / PAGE][id % PAGE] = true;
    }

    /** The probe of an enum's or interface's own static initialiser: always global. */
    public static void hitGlobal(int id) {
        hits[id / PAGE][id % PAGE] = true;
        global[id / PAGE][id % PAGE] = true;
    }

    /** Forgets the hits so far (before a test). */
    static synchronized void clear() {
        for (boolean[][] pages : new boolean[][][] {hits, lineHits}) {
            for (boolean[] page : pages) {
                if (page == null) break;
                java.util.Arrays.fill(page, false);
            }
        }
    }

    /**
     * The lines that follow a covered test's result: {@code cov\t<ids>} (comma-separated), then
     * {@code global\t<ids>} (every global id so far), then {@code name\t<id>\t<member>} for each id
     * not reported before; then {@code lines\t<ids>} and {@code line\t<id>\t<owner.method:line>}
     * the same way for source lines. Clears the hits.
     */
    static synchronized List<String> take() {
        List<String> out = new ArrayList<>();
        out.add(Util.line(Protocol.Coverage.COVERED, list(hits, true)));
        out.add(Util.line(Protocol.Coverage.GLOBAL, list(global, false)));
        for (int id = reported; id < names.size(); id++) out.add(Util.line(Protocol.Coverage.NAME, id, names.get(id)));
        reported = names.size();
        out.add(Util.line(Protocol.Coverage.LINES, list(lineHits, true)));
        for (int id = linesReported; id < lineNames.size(); id++) {
            out.add(Util.line(Protocol.Coverage.LINE_NAME, id, lineNames.get(id)));
        }
        linesReported = lineNames.size();
        return out;
    }

    private static String list(boolean[][] pages, boolean clear) {
        StringBuilder b = new StringBuilder();
        for (int p = 0; p < pages.length && pages[p] != null; p++) {
            boolean[] page = pages[p];
            for (int i = 0; i < PAGE; i++) {
                if (!page[i]) continue;
                if (b.length() > 0) b.append(',');
                b.append(p * PAGE + i);
                if (clear) page[i] = false;
            }
        }
        return b.toString();
    }
}
