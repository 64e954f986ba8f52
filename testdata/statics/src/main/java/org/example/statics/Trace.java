package org.example.statics;

import java.util.ArrayList;
import java.util.List;

/** What static initialisers ran, in order. */
public class Trace {
    public static final List<String> EVENTS = new ArrayList<>();

    public static void event(String what) {
        EVENTS.add(what);
    }
}
