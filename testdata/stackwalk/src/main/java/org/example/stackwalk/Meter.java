package org.example.stackwalk;

/** Meters a charge; its helpers see which methods of this class are on the stack through a StackWalker (Java 9+). */
public class Meter {
    /** The method of this class that last called {@link #note()}. */
    public static String notedIn;

    /** Notes the innermost method of this class on the stack (not this one, not a lambda). */
    public static void note() {
        notedIn = StackWalker.getInstance().walk(frames -> frames
            .filter(f -> f.getClassName().equals(Meter.class.getName()))
            .map(StackWalker.StackFrame::getMethodName)
            .filter(m -> !m.equals("note") && !m.startsWith("lambda$"))
            .findFirst()
            .orElse("?"));
    }

    /** The number of frames of this class on the stack, this one included. */
    public static long depth() {
        return StackWalker.getInstance().walk(frames -> frames
            .filter(f -> f.getClassName().equals(Meter.class.getName()))
            .count());
    }

    public static int charge(int units) {
        int cost;
        cost = units * 3;
        return cost + 1;
    }
}
