package org.example.soundness;

/** A step read at class initialisation (not a compile-time constant), which the trace records. */
public class Defaults {

    public static final int STEP = Integer.parseInt("10");

    static {
        Trace.loads++;
    }
}
