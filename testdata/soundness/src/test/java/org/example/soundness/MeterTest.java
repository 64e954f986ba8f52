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

    @Test
    public void onlyReadingsOverTheLimitAreNoted() {
        Meter m = new Meter();
        m.check(5, 3);
        m.check(3, 3);
        m.check(1, 3);
        assertEquals("over5;", m.log());
    }
}
