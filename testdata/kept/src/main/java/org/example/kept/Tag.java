package org.example.kept;

/** A tag that counts how many were made: its constructor writes a static field the reset puts back. */
public class Tag {
    private static int made;

    private final String text;

    public Tag(String text) {
        this.text = text;
        made++;
    }

    public String text() {
        return text;
    }

    public static int made() {
        return made;
    }
}
