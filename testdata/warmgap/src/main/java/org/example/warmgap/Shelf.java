package org.example.warmgap;

/**
 * An enum whose constant holds mutable state behind a final field of a project type: no reset puts
 * it back, and it is not one of the kinds the warm loader drops itself after (DESIGN.md, "Not
 * reset"), so a warm loader shows each test what the tests before it left.
 */
public enum Shelf {
    MAIN;

    final Tally tally = new Tally();

    public int take() {
        return tally.bump();
    }
}
