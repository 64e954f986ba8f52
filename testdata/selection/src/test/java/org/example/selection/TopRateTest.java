package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Reads only the static final field the initializer block assigns. */
public class TopRateTest {
    @Test
    public void topRate() {
        assertEquals(30, Rates.TOP);
    }
}
