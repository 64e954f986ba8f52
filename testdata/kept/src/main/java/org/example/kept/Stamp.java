package org.example.kept;

/**
 * Stamps, each with a Tag made by the enum's initialiser. Making one writes Tag's count, so the
 * initialiser is sticky (Reset.field at the constructor's entry): kept, the count would be 0 after
 * the reset of every later test, where a fresh loader makes both tags again.
 */
public enum Stamp {
    PAID("paid"),
    VOID("void");

    private final Tag tag;

    Stamp(String text) {
        this.tag = new Tag(text);
    }

    public Tag tag() {
        return tag;
    }
}
