package org.example.statics;

/** Counts its instances in a static field. */
public class Widget {
    public static int made;

    public Widget() {
        made++;
    }
}
