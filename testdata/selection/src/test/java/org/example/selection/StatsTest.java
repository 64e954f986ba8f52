package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StatsTest {
    @Test
    public void sumOfRange() {
        assertEquals(10, Ranges.sum(1, 5, 1));
        assertEquals(12, Ranges.sum(0, 7, 2));
    }
}
