package org.example.flaky;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ClampTest {
    @Test
    public void clampsAboveHigh() {
        assertEquals(10, Clamp.clamp(15, 0, 10));
    }

    @Test
    public void keepsInside() {
        assertEquals(5, Clamp.clamp(5, 0, 10));
    }

    @Test
    public void clampsBelowLow() {
        assertEquals(0, Clamp.clamp(-3, 0, 10));
    }

    @Test
    public void clampsToASingleValue() {
        assertEquals(3, Clamp.clamp(7, 3, 3));
    }
}
