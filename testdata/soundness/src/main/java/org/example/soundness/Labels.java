package org.example.soundness;

/** Renders items as labels through string concatenation (an implicit toString()). */
public class Labels {

    public static String label(Item item) {
        String text;
        text = "<" + item + ">";
        return text;
    }
}
