package org.example.kept;

import java.util.ArrayList;
import java.util.List;

/** The shades in the order their initialiser added them, filled by Shade's initialiser. */
public class Palette {
    private static final List<Shade> SHADES = new ArrayList<>();
    private static final List<String> LABELS = new ArrayList<>();

    static void add(String label, Shade shade) {
        LABELS.add(label);
        SHADES.add(shade);
    }

    public static int size() {
        Shade.values(); // the shades are added when the enum is first used
        return SHADES.size();
    }

    public static String labels() {
        Shade.values();
        return String.join(",", LABELS);
    }
}
