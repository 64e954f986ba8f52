package org.example.dedup;

/** Static counting helpers whose patch locations are rich in test-equivalent rewrites. */
public final class Counter {

    private Counter() {
    }

    /** Counts the strictly positive elements of xs. */
    public static int countPositive(int[] xs) {
        int count = 0;
        for (int i = 0; i < xs.length; i++) {
            int x = xs[i];
            if (x >= 0) {
                count++;
            }
        }
        return count;
    }

    /** Returns 2 + 4 + ... + 2n, that is n * (n + 1); 0 if n &lt; 1. */
    public static int doubledSum(int n) {
        int sum = 0;
        for (int i = 1; i <= n; i++) {
            sum += i * 2;
        }
        return sum;
    }

    /**
     * Counts the non-space characters of the lines. A '#' starts a comment that runs to the end
     * of its line; the comment is not counted.
     */
    public static int countVisible(String[] lines) {
        int count = 0;
        outer:
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            for (int j = 0; j < line.length(); j++) {
                char c = line.charAt(j);
                if (c == '#') {
                    continue outer;
                }
                if (c == ' ') {
                    continue;
                }
                count++;
            }
        }
        return count;
    }
}
