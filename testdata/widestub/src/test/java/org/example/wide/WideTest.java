package org.example.wide;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class WideTest {

    @Test
    public void fromZero() {
        assertEquals(1128, Wide.spread(0));
    }

    @Test
    public void fromOne() {
        assertEquals(1176, Wide.spread(1));
    }
}
