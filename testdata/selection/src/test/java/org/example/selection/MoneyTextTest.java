package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Reaches format(int) only through format(String). */
public class MoneyTextTest {
    @Test
    public void formatsNegativeText() {
        assertEquals("-2.50", Money.format("-250"));
    }

    @Test
    public void formatsTextWithSmallCents() {
        assertEquals("12.05", Money.format(" 1205 "));
    }
}
