package org.example.statics;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CounterTest {
    @Test
    public void countsFromZero() {
        assertEquals(1, Counter.next());
        assertEquals(2, Counter.next());
    }

    @Test
    public void countsFromZeroAgain() {
        assertEquals(1, Counter.next());
    }
}
