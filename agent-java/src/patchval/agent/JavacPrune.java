// patchval agent: JavacPrune owns the methods a compile leaves out: those holding every error of an analysed compile,
// when they lie inside methods the caller named prunable (lines of the first file), and the methods it named unused
// (never run), taken out of javac's trees and their classes' members, so that javac writes the class files it writes
// for the text without them (docs/weaving.md, compile rounds).
package patchval.agent;

import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.LineMap;
import com.sun.source.tree.MethodTree;
import com.sun.source.tree.Tree;
import com.sun.source.util.JavacTask;
import com.sun.source.util.SourcePositions;
import com.sun.source.util.TreeScanner;
import com.sun.source.util.Trees;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.JavaFileObject;

final class JavacPrune {
    private JavacPrune() {}

    /** Line ranges (first, last; 1-based) from the request's flat list of pairs; null when malformed. */
    static long[][] ranges(String[] pairs) {
        if (pairs == null || pairs.length % 2 != 0) return null;
        long[][] out = new long[pairs.length / 2][];
        try {
            for (int i = 0; i < out.length; i++) {
                out[i] = new long[] {Long.parseLong(pairs[2 * i]), Long.parseLong(pairs[2 * i + 1])};
            }
        } catch (NumberFormatException e) {
            return null;
        }
        return out;
    }

    /** javac's internals the leaving out needs, looked up once; null when this JDK's differ or are not exported. */
    private static final Internals INTERNALS = Internals.find();

    /** Whether methods can be left out on this JDK (else every compile answers as a call). */
    static boolean available() {
        return INTERNALS != null;
    }

    /**
     * Takes methods out of {@code unit}: those holding {@code errors}, when every error lies inside a prunable method
     * (members of top-level and member classes within {@code prunable}'s lines) and none of them declares a class
     * (an anonymous or local class would have taken a binary name, {@code A$1}, that the text without it gives
     * another class); and every method within {@code unused}'s lines (never run: context copies), unless one of those
     * declares a class. Then clears javac's error count so that it goes on to write the class files. Answers whether
     * the errors were taken out (true when there were none); when it answers false nothing was changed.
     */
    static boolean leaveOut(JavacTask task, CompilationUnitTree unit, List<Diagnostic<? extends JavaFileObject>> errors,
                            long[][] prunable, long[][] unused) throws ReflectiveOperationException {
        SourcePositions positions = Trees.instance(task).getSourcePositions();
        LineMap lines = unit.getLineMap();
        Map<MethodTree, ClassTree> candidates = new IdentityHashMap<>();
        Map<MethodTree, ClassTree> never = new IdentityHashMap<>();
        java.util.ArrayDeque<ClassTree> classes = new java.util.ArrayDeque<>();
        for (Tree t : unit.getTypeDecls()) {
            if (t instanceof ClassTree) classes.add((ClassTree) t);
        }
        while (!classes.isEmpty()) {
            ClassTree c = classes.poll();
            for (Tree m : c.getMembers()) {
                if (m instanceof ClassTree) {
                    classes.add((ClassTree) m);
                } else if (m instanceof MethodTree) {
                    long start = positions.getStartPosition(unit, m);
                    long end = positions.getEndPosition(unit, m);
                    if (start < 0 || end < start) continue;
                    long first = lines.getLineNumber(start);
                    long last = lines.getLineNumber(end);
                    if (within(prunable, first, last)) candidates.put((MethodTree) m, c);
                    if (within(unused, first, last)) never.put((MethodTree) m, c);
                }
            }
        }
        Map<MethodTree, ClassTree> out = new IdentityHashMap<>();
        for (Diagnostic<? extends JavaFileObject> d : errors) {
            if (d.getSource() == null || !d.getSource().equals(unit.getSourceFile())) return false;
            long at = d.getPosition();
            if (at == Diagnostic.NOPOS) return false;
            MethodTree found = null;
            for (MethodTree m : candidates.keySet()) {
                if (positions.getStartPosition(unit, m) <= at && at <= positions.getEndPosition(unit, m)) {
                    found = m;
                    break;
                }
            }
            if (found == null) return false;
            out.put(found, candidates.get(found));
        }
        for (MethodTree m : out.keySet()) {
            if (declaresClass(m)) return false;
        }
        boolean classInUnused = false;
        for (MethodTree m : never.keySet()) {
            classInUnused |= declaresClass(m);
        }
        if (!classInUnused) out.putAll(never);
        Internals x = INTERNALS;
        Map<ClassTree, List<Tree>> kept = new IdentityHashMap<>();
        for (Map.Entry<MethodTree, ClassTree> e : out.entrySet()) {
            ClassTree c = e.getValue();
            kept.computeIfAbsent(c, k -> new ArrayList<>(k.getMembers())).remove(e.getKey());
            Object members = x.members.invoke(x.classSym.get(c));
            x.remove.invoke(members, x.methodSym.get(e.getKey()));
        }
        for (Map.Entry<ClassTree, List<Tree>> e : kept.entrySet()) {
            x.defs.set(e.getKey(), x.listFrom.invoke(null, (Object) e.getValue().toArray()));
        }
        if (!errors.isEmpty()) {
            x.nerrors.setInt(x.logInstance.invoke(null, x.getContext.invoke(task)), 0);
        }
        return true;
    }

    /** The reflective handles on javac's internals (exported to the agent by the worker's JVM options). */
    private static final class Internals {
        java.lang.reflect.Method members;
        java.lang.reflect.Method remove;
        java.lang.reflect.Method listFrom;
        java.lang.reflect.Method getContext;
        java.lang.reflect.Method logInstance;
        java.lang.reflect.Field nerrors;
        java.lang.reflect.Field classSym;
        java.lang.reflect.Field methodSym;
        java.lang.reflect.Field defs;

        static Internals find() {
            try {
                Internals x = new Internals();
                Class<?> symbol = Class.forName("com.sun.tools.javac.code.Symbol");
                x.members = symbol.getMethod("members");
                x.remove = Class.forName("com.sun.tools.javac.code.Scope$WriteableScope").getMethod("remove", symbol);
                x.listFrom = Class.forName("com.sun.tools.javac.util.List").getMethod("from", Object[].class);
                x.getContext = Class.forName("com.sun.tools.javac.api.JavacTaskImpl").getMethod("getContext");
                Class<?> log = Class.forName("com.sun.tools.javac.util.Log");
                x.logInstance = log.getMethod("instance", Class.forName("com.sun.tools.javac.util.Context"));
                x.nerrors = log.getField("nerrors");
                Class<?> classDecl = Class.forName("com.sun.tools.javac.tree.JCTree$JCClassDecl");
                x.classSym = classDecl.getField("sym");
                x.defs = classDecl.getField("defs");
                x.methodSym = Class.forName("com.sun.tools.javac.tree.JCTree$JCMethodDecl").getField("sym");
                // Reachable, not only present: a package not exported to us answers here, not in a compile.
                Module javac = symbol.getModule();
                for (String p : new String[] {"api", "code", "tree", "util"}) {
                    if (!javac.isExported("com.sun.tools.javac." + p, Internals.class.getModule())) return null;
                }
                return x;
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return null;
            }
        }
    }

    private static boolean within(long[][] ranges, long first, long last) {
        for (long[] r : ranges) {
            if (r[0] <= first && last <= r[1]) return true;
        }
        return false;
    }

    private static boolean declaresClass(MethodTree m) {
        Boolean found = new TreeScanner<Boolean, Void>() {
            @Override
            public Boolean visitClass(ClassTree tree, Void v) {
                return true;
            }

            @Override
            public Boolean reduce(Boolean a, Boolean b) {
                return Boolean.TRUE.equals(a) || Boolean.TRUE.equals(b);
            }
        }.scan(m, null);
        return Boolean.TRUE.equals(found);
    }
}
