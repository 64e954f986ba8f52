package org.example.selection;

/** Priced by the interface's default method. */
public class Book implements Priced {
    private final int cents;

    public Book(int cents) {
        this.cents = cents;
    }

    @Override
    public int unitCents() {
        return cents;
    }
}
