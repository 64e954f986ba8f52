package org.example.purity;

/** Renders as the empty string, and counts how often it was rendered. */
public class Label {

    public static int rendered;

    @Override
    public String toString() {
        rendered++;
        return "";
    }
}
