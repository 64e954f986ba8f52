package org.example.hostile;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CounterTest {

    @Test
    public void startsAtZero() {
        assertEquals(0, new Counter().get());
    }

    @Test
    public void incrementAddsOne() {
        Counter c = new Counter();
        c.increment();
        c.increment();
        assertEquals(2, c.get());
    }

    @Test
    public void addAddsN() {
        Counter c = new Counter();
        c.add(5);
        assertEquals(5, c.get());
    }
}
