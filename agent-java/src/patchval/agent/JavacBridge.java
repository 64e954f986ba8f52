// patchval agent: JavacBridge owns in-process compilation (Agent.compile) and syntax checks (Agent.parseCheck)
// with a cached JavaCompiler and cached StandardJavaFileManagers (one per distinct option list).
package patchval.agent;

import com.sun.source.util.JavacTask;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.DiagnosticListener;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

final class JavacBridge {
    private JavacBridge() {}

    private static final Object LOCK = new Object();
    private static final int MAX_FMS = 4;
    /** Options used by parseCheck; UTF-8 so results do not depend on the worker's locale. */
    private static final List<String> PARSE_OPTIONS = Arrays.asList("-proc:none", "-encoding", "UTF-8");
    /** Decoding problems are not syntax errors (sources may be Latin-1); parseCheck ignores them. */
    private static final String ENCODING_ERROR = "compiler.err.illegal.char.for.encoding";

    /** Codes of javac's own I/O failures, which are no verdict on the sources. */
    private static final java.util.Set<String> IO_ERRORS = java.util.Set.of(
        "compiler.err.class.cant.write", "compiler.err.error.writing.file",
        "compiler.err.error.reading.file", "compiler.err.io.exception",
        "compiler.err.cant.read.file", "compiler.err.file.not.directory");

    private static JavaCompiler compiler;
    /** Diagnostics reported by a file manager itself (e.g. "unmappable character") go to the current call. */
    private static final Forwarder FORWARDER = new Forwarder();
    /** File managers keyed by the exact option list (so -cp/-d/--release locations never leak across keys). */
    private static final LinkedHashMap<String, StandardJavaFileManager> FMS = new LinkedHashMap<>(8, 0.75f, true);

    /**
     * Compiles {@code files}; {@code prunable} (line pairs of the first file, possibly empty) names methods that may
     * be left out of the class files when every error lies inside them ({@link JavacPrune}): the answer is then
     * {@code pruned} with the errors; {@code unused} (line pairs too) names methods never run, left out whenever
     * methods can be.
     */
    static String[] compile(String[] options, String[] files, String[] prunable, String[] unused) {
        synchronized (LOCK) {
            List<String> opts = options == null ? new ArrayList<String>() : Arrays.asList(options);
            long[][] ranges = JavacPrune.ranges(prunable);
            long[][] never = JavacPrune.ranges(unused);
            if (ranges == null || never == null) {
                return new String[] {Protocol.Compile.ERRORS, unplaced("malformed prunable or unused line pairs")};
            }
            return run(opts, files, false, ranges, never);
        }
    }

    static String[] parseCheck(String[] files) {
        synchronized (LOCK) {
            return run(PARSE_OPTIONS, files, true, new long[0][], new long[0][]);
        }
    }

    private static String[] run(List<String> opts, String[] files, boolean parseOnly, long[][] prunable,
                                long[][] unused) {
        String key = (parseOnly ? "parse\0" : "compile\0") + String.join("\0", opts);
        StandardJavaFileManager fm = null;
        boolean ok = false;
        try {
            JavaCompiler c = compiler();
            fm = fileManager(c, key);
            Map<JavaFileObject, String> given = new IdentityHashMap<>();
            List<JavaFileObject> units = new ArrayList<>();
            for (String f : files == null ? new String[0] : files) {
                for (JavaFileObject fo : fm.getJavaFileObjects(f)) {
                    units.add(fo);
                    given.put(fo, f);
                }
            }
            DiagnosticCollector<JavaFileObject> diags = new DiagnosticCollector<>();
            FORWARDER.target = diags;
            StringWriter out = new StringWriter();
            boolean success;
            JavacTask task;
            try {
                task = (JavacTask) c.getTask(out, fm, diags, opts, null, units);
            } catch (IllegalArgumentException e) {
                ok = true; // the file manager is fine, the options are not
                return new String[] {Protocol.Compile.ERRORS, unplaced(Util.clean("invalid compiler options: " + Util.describe(e)))};
            }
            boolean pruned = false;
            if (parseOnly) {
                task.parse();
                success = true;
            } else if ((prunable.length > 0 || unused.length > 0) && JavacPrune.available()) {
                pruned = analyseThenGenerate(task, diags, prunable, unused);
                success = errors(diags).isEmpty();
            } else {
                Boolean r = task.call();
                success = r != null && r;
            }
            List<String> res = new ArrayList<>();
            res.add(Protocol.Compile.OK);
            for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
                if (d.getKind() != Diagnostic.Kind.ERROR) continue;
                if (parseOnly && ENCODING_ERROR.equals(d.getCode())) continue;
                if (IO_ERRORS.contains(d.getCode())) {
                    // javac could not read or write its files (a full disk, a read-only
                    // directory): no verdict on the sources.
                    ok = true;
                    return new String[] {Protocol.Compile.IO_ERROR, format(d, given)};
                }
                res.add(format(d, given));
            }
            if (res.size() > 1 || !success) res.set(0, pruned ? Protocol.Compile.PRUNED : Protocol.Compile.ERRORS);
            if (!success && res.size() == 1) {
                res.add(unplaced(Util.clean("compilation failed without diagnostics: " + out)));
            }
            ok = true;
            return res.toArray(new String[0]);
        } catch (Throwable t) {
            return new String[] {Protocol.Compile.ERRORS, unplaced(Util.clean("compiler crashed: " + Util.describe(t)))};
        } finally {
            FORWARDER.target = null;
            release(key, fm, ok);
        }
    }

    /**
     * javac's call in steps: parse, analyse (attribution and flow, every error reported as by a call), leave out the
     * unused methods and, when every error lies inside prunable ones, those holding errors ({@link JavacPrune}),
     * then write the class files when no error is left. Answers whether class files were written past errors; a
     * compile that writes none past errors answers as a call does.
     */
    private static boolean analyseThenGenerate(JavacTask task, DiagnosticCollector<JavaFileObject> diags,
                                               long[][] prunable, long[][] unused)
            throws java.io.IOException, ReflectiveOperationException {
        List<com.sun.source.tree.CompilationUnitTree> units = new ArrayList<>();
        for (com.sun.source.tree.CompilationUnitTree u : task.parse()) units.add(u);
        boolean parsed = errors(diags).isEmpty();
        task.analyze();
        List<Diagnostic<? extends JavaFileObject>> analysed = errors(diags);
        if (analysed.isEmpty()) {
            if (!units.isEmpty()) JavacPrune.leaveOut(task, units.get(0), analysed, prunable, unused);
            task.generate();
            return false;
        }
        if (!parsed || units.isEmpty()) return false;
        try {
            if (!JavacPrune.leaveOut(task, units.get(0), analysed, prunable, unused)) return false;
            task.generate();
        } catch (RuntimeException | LinkageError | ReflectiveOperationException e) {
            // Class files may be half written: the answer is the errors alone, and the caller's next compile
            // empties the directory.
            return false;
        }
        // javac refused to write a class it could not finish (a method past the JVM's limits): as a call.
        return errors(diags).size() == analysed.size();
    }

    private static List<Diagnostic<? extends JavaFileObject>> errors(DiagnosticCollector<JavaFileObject> diags) {
        List<Diagnostic<? extends JavaFileObject>> out = new ArrayList<>();
        for (Diagnostic<? extends JavaFileObject> d : diags.getDiagnostics()) {
            if (d.getKind() == Diagnostic.Kind.ERROR) out.add(d);
        }
        return out;
    }

    private static String format(Diagnostic<? extends JavaFileObject> d, Map<JavaFileObject, String> given) {
        JavaFileObject src = d.getSource();
        String path = "";
        if (src != null) {
            path = given.get(src);
            if (path == null) path = src.getName();
        }
        long line = d.getLineNumber();
        long col = d.getColumnNumber();
        String msg;
        try {
            msg = d.getMessage(Locale.ROOT);
        } catch (Throwable t) {
            msg = String.valueOf(d.getCode());
        }
        return Util.line(Util.clean(path, Integer.MAX_VALUE), Math.max(0, line), Math.max(0, col),
            d.getStartPosition(), d.getEndPosition(), Util.clean(msg));
    }

    /** The error line of a {@code message} (one field) that has no place in a file. */
    static String unplaced(String message) {
        return Util.line("", Protocol.Compile.NO_LINE, Protocol.Compile.NO_LINE, Protocol.Compile.NO_POSITION,
            Protocol.Compile.NO_POSITION, message);
    }

    private static JavaCompiler compiler() {
        if (compiler == null) {
            JavaCompiler c = ToolProvider.getSystemJavaCompiler();
            if (c == null) throw new IllegalStateException("no system Java compiler (running on a JRE?)");
            compiler = c;
        }
        return compiler;
    }

    private static StandardJavaFileManager fileManager(JavaCompiler c, String key) {
        StandardJavaFileManager fm = FMS.remove(key);
        if (fm != null) return fm;
        return c.getStandardFileManager(FORWARDER, Locale.ROOT, null);
    }

    /**
     * Puts the file manager back into the cache after closing it. JavacFileManager.close() drops its caches
     * (opened jars, directory/jar containers incl. "missing" ones, source content cache) but keeps its
     * locations, and reopens things lazily on the next use; so the next call sees current files on disk.
     * After a crash the file manager is dropped.
     */
    private static void release(String key, StandardJavaFileManager fm, boolean ok) {
        if (fm == null) return;
        try {
            fm.close();
        } catch (Throwable t) {
            ok = false;
        }
        if (!ok) return;
        FMS.put(key, fm);
        while (FMS.size() > MAX_FMS) {
            Iterator<String> it = FMS.keySet().iterator();
            it.next();
            it.remove();
        }
    }

    private static final class Forwarder implements DiagnosticListener<JavaFileObject> {
        volatile DiagnosticListener<? super JavaFileObject> target;

        @Override
        public void report(Diagnostic<? extends JavaFileObject> d) {
            DiagnosticListener<? super JavaFileObject> t = target;
            if (t != null) t.report(d);
        }
    }
}
