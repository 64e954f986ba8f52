package org.example.soundness;

/**
 * Joins a string's first character with "b". A {@code final} local is a constant variable when
 * its initialiser is a constant expression, and then {@code head + "b"} is folded at compile time
 * to the interned "ab"; split into a declaration and an assignment it would be neither.
 */
public class Prefix {
    /** The last string {@link #folds} joined. */
    public static String last;

    /** Whether the joined string is the interned literal "ab" (by identity). */
    public static boolean folds(String s) {
        final String head = s.substring(0, 1);
        String joined = head + "b";
        last = joined;
        return joined == "ab";
    }
}
