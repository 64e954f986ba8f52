package org.example.statics;

/** Calling a static method initialises the class, and its superclass first. */
public class Second extends First {
    static {
        Trace.event("Second");
    }

    public static int id() {
        return ID + 1;
    }
}
