package org.example.soundness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;

import org.junit.Test;

public class HistoryTest {

    @Test
    public void recordKeepsEqualValue() {
        History h = new History();
        h.record(5);
        assertEquals(Integer.valueOf(5), h.last());
    }

    @Test
    public void recordKeepsTheSameObject() {
        History h = new History();
        Integer v = Integer.valueOf(1000); // outside the Integer cache: a fresh object
        h.record(v);
        assertEquals(v, h.last());
        assertSame(v, h.last());
    }

    @Test
    public void nameKeepsEqualValue() {
        History h = new History();
        h.name("abc");
        assertEquals("abc", h.lastName());
    }

    @Test
    public void nameKeepsTheSameObject() {
        History h = new History();
        String s = new StringBuilder("na").append("me").toString(); // not the pooled literal
        h.name(s);
        assertEquals(s, h.lastName());
        assertSame(s, h.lastName());
    }
}
