package org.example.selection;

/** Something sold by the unit; ten or more units get 10% off, rounded down. */
public interface Priced {
    int unitCents();

    default int priceFor(int quantity) {
        return quantity >= 10 ? unitCents() * quantity * 9 / 10 : unitCents() * quantity;
    }
}
