package org.example.purity;

/** Counts the calls of `factor()`. */
public class CountingScaler extends Scaler {

    public int calls;

    @Override
    public int factor() {
        calls++;
        return 2;
    }
}
