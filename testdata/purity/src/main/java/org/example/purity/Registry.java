package org.example.purity;

/** Counts the plugin classes initialised. */
public final class Registry {

    private Registry() {
    }

    public static int loads;
}
