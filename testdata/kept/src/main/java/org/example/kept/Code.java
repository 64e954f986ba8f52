package org.example.kept;

/**
 * Codes whose initialiser registers every constant in Names, a class the warm loader resets, as
 * jsoup's EscapeMode fills Entities.multipoints; its letters (a final array) would make it keepable.
 */
public enum Code {
    ALPHA("a"),
    BETA("b");

    private final char[] letters;

    Code(String letter) {
        this.letters = letter.toCharArray();
        Names.register(letter, this);
    }

    public char[] letters() {
        return letters;
    }
}
