package org.example.soundness;

/** Records which classes have been initialised. */
public class Trace {

    public static int loads;
}
