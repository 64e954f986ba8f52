package org.example.kept;

/**
 * Shades whose initialiser adds every constant to Palette, a class the warm loader resets. Its one
 * field is a final String, so unlike Code it never looked sticky: kept as it is across tests.
 */
public enum Shade {
    DARK("dark"),
    LIGHT("light");

    private final String label;

    Shade(String label) {
        this.label = label;
        Palette.add(label, this);
    }

    public String label() {
        return label;
    }
}
