// patchval instrument: StackReads says which calls read the call stack (the JDK's readers, as
// src/bytecode/purity/stack.rs lists them) and whether a method reaches one within its class.
package patchval.instrument;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The JDK's stack readers, by owner and name, and a reachability check over a class's own calls. */
final class StackReads {
    private StackReads() {}

    private static final Set<String> READERS = new HashSet<>(Arrays.asList(
        "getStackTrace", "printStackTrace", "dumpStack", "getAllStackTraces", "getCallerClass",
        "getClassContext", "getSourceClassName", "getSourceMethodName"));

    /** {@code java.util.logging.Logger} methods that log, each inferring its caller. */
    private static final Set<String> LOGGER = new HashSet<>(Arrays.asList(
        "log", "logp", "logrb", "severe", "warning", "info", "config", "fine", "finer", "finest",
        "entering", "exiting", "throwing"));

    /** Whether invoking {@code owner.name} reads the stack in the JDK. */
    static boolean isJdkReader(String owner, String name) {
        switch (owner) {
            case "java/lang/StackWalker":
                return !name.equals("getInstance");
            case "java/util/logging/Logger":
                return LOGGER.contains(name);
            default:
                return READERS.contains(name) && !owner.startsWith("[");
        }
    }

    /**
     * Whether objects of the class may be throwables, by name (the agent sees one class at a
     * time, not the hierarchy): {@code java/lang/Throwable} and classes named {@code ...Exception}
     * or {@code ...Error}.
     */
    static boolean mayBeThrowable(String internalName) {
        return internalName.equals("java/lang/Throwable")
            || internalName.endsWith("Exception") || internalName.endsWith("Error");
    }

    /** Whether {@code from} reaches {@code mark} over {@code calls} (method to the methods it calls). */
    static boolean reaches(Map<String, List<String>> calls, String from, String mark) {
        Set<String> seen = new HashSet<>();
        ArrayDeque<String> todo = new ArrayDeque<>();
        todo.add(from);
        while (!todo.isEmpty()) {
            String m = todo.pop();
            if (m.equals(mark)) return true;
            if (!seen.add(m)) continue;
            List<String> next = calls.get(m);
            if (next != null) todo.addAll(next);
        }
        return false;
    }
}
