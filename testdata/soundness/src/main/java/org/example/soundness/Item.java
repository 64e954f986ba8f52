package org.example.soundness;

/** A named item; its string form is its name. */
public class Item {

    private final String name;

    public Item(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
