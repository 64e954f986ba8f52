package org.example.statics;

/** A flag a test sets to make {@link Fragile}'s initialiser fail. */
public class Switch {
    public static boolean broken;
}
