// patchval agent: JavacPrune owns the methods a compile leaves out: when every error of an analysed compile lies inside
// methods the caller named prunable (lines of the first file), those methods are taken out of javac's trees and their
// classes' members, so that javac writes the class files it writes for the text without them (docs/weaving.md).
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

    /**
     * Takes out of {@code unit} the prunable methods that hold {@code errors}, when every error lies inside one
     * (the outermost prunable method around it) and none of them declares a class (an anonymous or local class
     * would have taken a binary name, {@code A$1}, that the text without it gives another class); then clears javac's
     * error count so that it goes on to write the class files. Answers whether it did; when it answers false nothing
     * was changed. javac's internals are reached by reflection (the worker's JVM exports them, toolchain.rs).
     */
    static boolean prune(JavacTask task, CompilationUnitTree unit, List<Diagnostic<? extends JavaFileObject>> errors,
                         long[][] ranges) {
        SourcePositions positions = Trees.instance(task).getSourcePositions();
        LineMap lines = unit.getLineMap();
        // Prunable methods: members of top-level and member classes (never of a local or anonymous class) within
        // one of the ranges, with their class.
        Map<MethodTree, ClassTree> prunable = new IdentityHashMap<>();
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
                    if (start >= 0 && end >= start
                            && within(ranges, lines.getLineNumber(start), lines.getLineNumber(end))) {
                        prunable.put((MethodTree) m, c);
                    }
                }
            }
        }
        Map<MethodTree, ClassTree> holding = new IdentityHashMap<>();
        for (Diagnostic<? extends JavaFileObject> d : errors) {
            if (d.getSource() == null || !d.getSource().equals(unit.getSourceFile())) return false;
            long at = d.getPosition();
            if (at == Diagnostic.NOPOS) return false;
            MethodTree found = null;
            for (MethodTree m : prunable.keySet()) {
                if (positions.getStartPosition(unit, m) <= at && at <= positions.getEndPosition(unit, m)) {
                    found = m;
                    break;
                }
            }
            if (found == null) return false;
            holding.put(found, prunable.get(found));
        }
        for (MethodTree m : holding.keySet()) {
            if (declaresClass(m)) return false;
        }
        try {
            Class<?> symbol = Class.forName("com.sun.tools.javac.code.Symbol");
            Class<?> scope = Class.forName("com.sun.tools.javac.code.Scope$WriteableScope");
            Class<?> list = Class.forName("com.sun.tools.javac.util.List");
            Map<ClassTree, List<Tree>> kept = new IdentityHashMap<>();
            for (Map.Entry<MethodTree, ClassTree> e : holding.entrySet()) {
                ClassTree c = e.getValue();
                kept.computeIfAbsent(c, k -> new ArrayList<>(k.getMembers())).remove(e.getKey());
                Object members = symbol.getMethod("members").invoke(c.getClass().getField("sym").get(c));
                scope.getMethod("remove", symbol).invoke(members, e.getKey().getClass().getField("sym").get(e.getKey()));
            }
            for (Map.Entry<ClassTree, List<Tree>> e : kept.entrySet()) {
                Object defs = list.getMethod("from", Object[].class).invoke(null, (Object) e.getValue().toArray());
                e.getKey().getClass().getField("defs").set(e.getKey(), defs);
            }
            Object context = task.getClass().getMethod("getContext").invoke(task);
            Class<?> log = Class.forName("com.sun.tools.javac.util.Log");
            Object instance = log.getMethod("instance", Class.forName("com.sun.tools.javac.util.Context"))
                .invoke(null, context);
            log.getField("nerrors").setInt(instance, 0);
            return true;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            // Not javac 17's internals, or not exported to us: the caller compiles again without the methods.
            throw new IllegalStateException("cannot leave methods out: " + Util.describe(e), e);
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
