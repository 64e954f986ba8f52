package org.example.rates.extra;

import org.example.rates.spi.Discount;

/** The test's discount provider (META-INF/services in the test resources). */
public class TenOff implements Discount {
    @Override
    public int cents(int total) {
        return total >= 100 ? 10 : 0;
    }
}
