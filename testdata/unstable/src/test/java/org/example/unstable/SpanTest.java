package org.example.unstable;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class SpanTest {
    @Test
    public void countOfOne() {
        assertEquals(1, Span.count(3, 3));
    }

    @Test
    public void countOfTen() {
        assertEquals(10, Span.count(1, 10));
    }

    @Test
    public void countOfEmpty() {
        assertEquals(0, Span.count(5, 4));
    }

    @Test
    public void countBelowZero() {
        assertEquals(3, Span.count(-2, 0));
    }

    @Test
    public void containsItsEnds() {
        assertTrue(Span.contains(1, 4, 1));
        assertTrue(Span.contains(1, 4, 4));
        assertFalse(Span.contains(1, 4, 5));
    }
}
