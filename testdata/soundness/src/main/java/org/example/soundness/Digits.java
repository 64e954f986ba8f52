package org.example.soundness;

/** Digit sums; a character that is not a digit is a ParseError at its index. */
public class Digits {

    public static int sum(String s) {
        int total = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new ParseError(i);
            }
            total += c - '0';
        }
        return total;
    }
}
