package org.example.hintkeys;

import java.util.logging.Logger;

/**
 * Keeps the key a test saw alive after the test, in a JDK-wide object (the global logger's filter),
 * as a long-lived object holding a chart would: the JDK's key registry then still holds a live key of
 * the class when the next test makes the key again.
 */
final class Keeper {
    private Keeper() {}

    static void keep(Object key) {
        Logger.getGlobal().setFilter(record -> key != null);
    }
}
