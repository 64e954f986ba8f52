package org.example.warmgap;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ScaleTest {
    @Test
    public void twiceOfThree() {
        assertEquals(6, Scale.twice(3));
    }

    @Test
    public void twiceOfMinusFour() {
        assertEquals(-8, Scale.twice(-4));
    }
}
