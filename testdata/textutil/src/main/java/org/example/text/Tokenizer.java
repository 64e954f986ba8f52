package org.example.text;

/**
 * Splits a string into tokens: maximal runs of letters/digits, or single other
 * non-whitespace characters. Whitespace separates tokens and is skipped.
 */
public class Tokenizer {

    private final String input;
    private int pos;

    public Tokenizer(String input) {
        this.input = input;
    }

    public int position() {
        return pos;
    }

    public boolean hasNext() {
        skipWhitespace();
        return pos < input.length();
    }

    public void skipWhitespace() {
        while (pos < input.length() && Character.isWhitespace(input.charAt(pos))) {
            pos++;
        }
    }

    public String next() throws TokenizeException {
        skipWhitespace();
        if (pos >= input.length()) {
            throw new TokenizeException("no more tokens at position " + pos);
        }
        int start = pos;
        if (Character.isLetterOrDigit(input.charAt(pos))) {
            while (pos < input.length() && Character.isLetterOrDigit(input.charAt(pos))) {
                pos++;
            }
        } else {
            pos++;
        }
        return input.substring(start, pos);
    }

    public int countTokens() throws TokenizeException {
        int n = 0;
        while (hasNext()) {
            next();
            n++;
        }
        return n;
    }
}
