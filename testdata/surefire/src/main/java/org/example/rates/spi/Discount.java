package org.example.rates.spi;

/** A discount in cents for a basket total; found with ServiceLoader through the system class loader. */
public interface Discount {
    int cents(int total);
}
