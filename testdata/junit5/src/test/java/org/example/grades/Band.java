package org.example.grades;

/** A letter and whether it passes: a test-only type used as a parameter of a parameterized test. */
final class Band {
    final char letter;
    final boolean passes;

    Band(char letter, boolean passes) {
        this.letter = letter;
        this.passes = passes;
    }

    @Override
    public String toString() {
        return letter + (passes ? " passes" : " fails");
    }
}
