package org.example.selection;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;

/** Orders words by length, then alphabetically, with a comparator that a factory method creates. */
public final class Sorting {
    /** Created once by the static initialiser: every sort runs the lambda, none calls byLength. */
    public static final Comparator<String> BY_LENGTH = byLength();

    private Sorting() {
    }

    public static Comparator<String> byLength() {
        return (a, b) -> {
            int d = a.length() - b.length();
            return d != 0 ? d : a.compareTo(b);
        };
    }

    public static List<String> sorted(Collection<String> words) {
        List<String> out = new ArrayList<>(words);
        out.sort(BY_LENGTH);
        return out;
    }

    public static String shortest(Collection<String> words) {
        return Collections.min(words, BY_LENGTH);
    }
}
