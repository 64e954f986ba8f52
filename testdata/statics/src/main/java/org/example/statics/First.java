package org.example.statics;

/** A superclass whose initialiser must run before its subclass's. */
public class First {
    public static final int ID = Integer.parseInt("1");

    static {
        Trace.event("First");
    }
}
