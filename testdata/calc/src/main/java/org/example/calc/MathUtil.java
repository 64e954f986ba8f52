package org.example.calc;

/** Static integer helpers. */
public final class MathUtil {

    private MathUtil() {
    }

    /** Returns the sum of all integers in the closed range [from, to]; 0 if from > to. */
    public static int sumRange(int from, int to) {
        int sum = 0;
        for (int i = from; i <= to; i++) {
            sum += i;
        }
        return sum;
    }

    /**
     * Searches the ascending array a for key. Returns its index if found, otherwise
     * (-(insertion point) - 1), exactly like java.util.Arrays.binarySearch.
     */
    public static int binarySearch(int[] a, int key) {
        int lo = 0;
        int hi = a.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int v = a[mid];
            if (v < key) {
                lo = mid + 1;
            } else if (v > key) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -lo;
    }

    /** Counts the rows of m that contain no zero. */
    public static int countRowsWithoutZero(int[][] m) {
        int count = 0;
        outer:
        for (int r = 0; r < m.length; r++) {
            for (int c = 0; c < m[r].length; c++) {
                if (m[r][c] == 0) {
                    continue outer;
                }
            }
            count++;
        }
        return count;
    }

    /** Returns n! for 0 &lt;= n &lt;= 20. */
    public static long factorial(int n) throws CalcException {
        if (n < 0) {
            throw new CalcException("negative argument: " + n);
        }
        if (n > 20) {
            throw new CalcException("result overflows long: " + n);
        }
        long result = 1;
        for (int i = 2; i <= n; i++) {
            result *= i;
        }
        return result;
    }
}
