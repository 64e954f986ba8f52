package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Calls format(int) directly, and the long overload, which does not delegate. */
public class MoneyTest {
    @Test
    public void formatsInt() {
        assertEquals("12.34", Money.format(1234));
        assertEquals("999.99", Money.format(99999));
    }

    @Test
    public void formatsLong() {
        assertEquals("1234567890.12", Money.format(123456789012L));
        assertEquals("-0.05", Money.format(-5L));
    }
}
