package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** The first test to initialise Rates: the low brackets only. */
public class RatesTest {
    @Test
    public void lowBrackets() {
        assertEquals(10, Rates.percent(0));
        assertEquals(15, Rates.percent(1));
        assertEquals(20, Rates.percent(2));
    }
}
