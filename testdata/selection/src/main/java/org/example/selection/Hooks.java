package org.example.selection;

/** Event handlers looked up by name: nothing in the project calls onEvent directly. */
public final class Hooks {
    private Hooks() {
    }

    @SuppressWarnings("unused")
    private static String onEvent(String name, int count) {
        return name + ": " + count + " event" + (count == 1 ? "" : "s");
    }
}
