package org.example.tables;

/** A table only read by its own code; tests reach it by reflection. */
public class Secret {
    private static final int[] VALUES = {1, 2, 3};

    static {
        VALUES[2] = VALUES[0] + VALUES[1];
    }

    public static int get(int i) {
        return VALUES[i];
    }
}
