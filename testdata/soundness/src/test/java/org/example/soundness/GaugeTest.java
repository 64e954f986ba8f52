package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class GaugeTest {

    @Test
    public void startsAtZero() {
        assertEquals(0, new Gauge().level());
    }

    @Test
    public void setLevel() {
        Gauge g = new Gauge();
        g.setLevel(7);
        assertEquals(7, g.level());
    }

    @Test
    public void setLevelTwice() {
        Gauge g = new Gauge();
        g.setLevel(3);
        g.setLevel(9);
        assertEquals(9, g.level());
    }
}
