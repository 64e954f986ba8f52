package org.example.soundness;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.IntBinaryOperator;
import java.util.function.IntUnaryOperator;

/**
 * Block lambdas, woven with the statement around them: one returned and run later (its parameter's
 * type inferred, a type variable), one run at once by forEach writing a field, one with a loop,
 * one in a static field's initialiser.
 */
public class Relay {
    private final List<String> log = new ArrayList<>();
    private int seen;

    /** A rule applied later: the lambda outlives the call that made it. */
    public static <T> Function<T, String> labeller(String prefix) {
        return v -> {
            String s = String.valueOf(v);
            return prefix + s.length() + ":" + s;
        };
    }

    /** Logs each word longer than min and returns how many were logged so far. */
    public int record(List<String> words, int min) {
        words.forEach(w -> {
            if (w.length() > min) {
                log.add(w);
                seen++;
            }
        });
        return seen;
    }

    /** The first index at or after `from` whose element is the key, -1 when none. */
    public static IntBinaryOperator finder(int[] xs) {
        return (key, from) -> {
            for (int i = from; i < xs.length; i++) {
                if (xs[i] == key) {
                    return i;
                }
            }
            return -1;
        };
    }

    public List<String> log() {
        return log;
    }

    /** A lambda in a static field's initialiser: woven with the initialiser moved into a method. */
    static final IntUnaryOperator HALF = x -> {
        int h = x / 2;
        return h;
    };
}
