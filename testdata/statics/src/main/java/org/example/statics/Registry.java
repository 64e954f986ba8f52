package org.example.statics;

import java.util.ArrayList;
import java.util.List;

/** A static registry that every test fills from empty. */
public class Registry {
    private static final List<String> NAMES = new ArrayList<>();

    public static int add(String name) {
        NAMES.add(name);
        return NAMES.size();
    }

    public static List<String> names() {
        return NAMES;
    }
}
