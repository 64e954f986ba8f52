package org.example.purity;

/** An exception whose no-argument constructor counts the instances made. */
public class Tally extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public static int made;

    public Tally() {
        made++;
    }
}
