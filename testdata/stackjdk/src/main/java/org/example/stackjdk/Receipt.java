package org.example.stackjdk;

/** Adds a fee; its helpers note which method of this class they were run from, reading the stack. */
public class Receipt {
    /** The method of this class that last made a {@link Tag}'s text, compared one, or ran a note. */
    public static String taggedIn;
    public static String comparedIn;
    public static String notedIn;

    /** Notes where its text was made (the JDK calls it back: {@code String.valueOf}) and where it was compared. */
    public static class Tag {
        @Override
        public String toString() {
            taggedIn = innermostHere();
            return "tag";
        }

        @Override
        public boolean equals(Object other) {
            comparedIn = innermostHere();
            return other instanceof Tag;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** The method of this class that last iterated a {@link Tab}. */
    public static String iteratedIn;

    /** An iterable that notes where it was iterated: an enhanced {@code for} (or JDK code) calls {@code iterator()}. */
    public static class Tab implements Iterable<Integer> {
        @Override
        public java.util.Iterator<Integer> iterator() {
            iteratedIn = innermostHere();
            return java.util.Collections.singletonList(10).iterator();
        }
    }

    /** The method java.util.logging named as the source of the last record {@link #JUL} logged. */
    public static String loggedIn;

    /** A JDK logger whose handler keeps the source method it infers from the stack. */
    public static final java.util.logging.Logger JUL = java.util.logging.Logger.getLogger("receipt");

    static {
        JUL.setUseParentHandlers(false);
        JUL.addHandler(new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord record) {
                loggedIn = record.getSourceMethodName();
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        });
    }

    /** A note run later through the JDK's {@code Supplier.get}, naming the method that ran it. */
    public static java.util.function.Supplier<String> note() {
        return () -> notedIn = innermostHere();
    }

    /** The method of the innermost frame of this class (not of a nested class, not a lambda) that called this. */
    static String innermostHere() {
        StackTraceElement[] frames = new Throwable().getStackTrace();
        for (int i = 1; i < frames.length; i++) {
            if (frames[i].getClassName().equals(Receipt.class.getName())
                    && !frames[i].getMethodName().startsWith("lambda$")) {
                return frames[i].getMethodName();
            }
        }
        return "?";
    }

    public static int total(int amount, String label) {
        int fee;
        fee = amount / 10;
        return amount + fee;
    }
}
