package org.example.text;

/** Static string helpers. */
public final class TextUtil {

    private TextUtil() {
    }

    public static String reverse(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = s.length() - 1; i >= 0; i--) {
            sb.append(s.charAt(i));
        }
        return sb.toString();
    }

    /** Number of non-overlapping occurrences of sub in text; 0 when sub is empty. */
    public static int countOccurrences(String text, String sub) {
        if (sub.isEmpty()) {
            return 0;
        }
        int count = 0;
        int idx = text.indexOf(sub);
        while (idx >= 0) {
            count++;
            idx = text.indexOf(sub, idx + 1);
        }
        return count;
    }

    /** True if s reads the same backwards, ignoring case and non-letter characters. */
    public static boolean isPalindrome(String s) {
        int i = 0;
        int j = s.length() - 1;
        while (i < j) {
            char a = s.charAt(i);
            char b = s.charAt(j);
            if (!Character.isLetter(a)) {
                i++;
                continue;
            }
            if (!Character.isLetter(b)) {
                j--;
                continue;
            }
            if (Character.toLowerCase(a) != Character.toLowerCase(b)) {
                return false;
            }
            i++;
            j--;
        }
        return true;
    }

    /** Returns {row, col} of the first occurrence of target in grid (row-major order), or null. */
    public static int[] findFirst(char[][] grid, char target) {
        int[] found = null;
        outer:
        for (int r = 0; r < grid.length; r++) {
            for (int c = 0; c < grid[r].length; c++) {
                if (grid[r][c] == target) {
                    found = new int[] {r, c};
                    break outer;
                }
            }
        }
        return found;
    }

    /** Upper-cases the first letter of each space-separated word. */
    public static String capitalizeWords(String s) {
        char[] chars = s.toCharArray();
        boolean startOfWord = true;
        for (int i = 0; i < chars.length; i++) {
            if (chars[i] == ' ') {
                startOfWord = true;
            } else if (startOfWord) {
                chars[i] = Character.toUpperCase(chars[i]);
                startOfWord = false;
            }
        }
        return new String(chars);
    }
}
