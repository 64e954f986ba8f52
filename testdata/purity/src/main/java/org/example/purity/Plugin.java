package org.example.purity;

/** A class whose initialiser registers it: naming it has an effect. */
public final class Plugin {

    private Plugin() {
    }

    public static final int ID;

    static {
        Registry.loads++;
        ID = 7;
    }
}
