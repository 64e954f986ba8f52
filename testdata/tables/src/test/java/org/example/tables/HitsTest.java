package org.example.tables;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class HitsTest {
    @Test
    public void firstHit() {
        assertEquals(1, Hits.hit(0));
    }

    @Test
    public void firstHitAgain() {
        assertEquals(1, Hits.hit(0));
    }
}
