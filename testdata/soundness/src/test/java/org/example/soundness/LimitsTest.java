package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LimitsTest {

    @Test
    public void defaultMax() {
        assertEquals(100, Limits.clamp(150));
    }

    @Test
    public void setMaxBoundsClamp() {
        Limits.setMax(50);
        assertEquals(50, Limits.clamp(70));
        assertEquals(30, Limits.clamp(30));
    }

    @Test
    public void setMaxTwice() {
        Limits.setMax(10);
        Limits.setMax(20);
        assertEquals(20, Limits.clamp(25));
    }
}
