package org.example.selection;

/** Overrides the default method: one price whatever the quantity. */
public class Gift implements Priced {
    private final int cents;

    public Gift(int cents) {
        this.cents = cents;
    }

    @Override
    public int unitCents() {
        return cents;
    }

    @Override
    public int priceFor(int quantity) {
        return cents;
    }
}
