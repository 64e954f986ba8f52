package org.example.statics;

import java.util.Locale;

/** Greets in a mode read from a system property, with the default Locale's case rules. */
public class Greeter {
    public static String greet(String name) {
        String mode = System.getProperty("statics.mode", "quiet");
        String text = "hello " + name;
        return mode.equals("loud") ? text.toUpperCase(Locale.getDefault()) + "!" : text;
    }
}
