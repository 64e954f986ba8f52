package org.example.kept;

import java.util.regex.Pattern;

/**
 * An ink by name. Its static pattern makes it a class the warm loader resets, but its constructor
 * reaches no static field, so making one is no reason for Pen's initialiser to be sticky.
 */
public class Ink {
    private static final Pattern NAME = Pattern.compile("[a-z]+");

    private final String name;

    public Ink(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    public boolean valid() {
        return NAME.matcher(name).matches();
    }
}
