package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class MeterTest {

    @Test
    public void readingsAreNotedInOrder() {
        Meter m = new Meter();
        m.read(3, 1);
        m.read(5, 1);
        assertEquals("r7;r11;", m.log());
    }

    @Test
    public void readingsAddUp() {
        Meter m = new Meter();
        m.read(3, 1);
        m.read(0, 4);
        assertEquals(11L, m.total());
    }
}
