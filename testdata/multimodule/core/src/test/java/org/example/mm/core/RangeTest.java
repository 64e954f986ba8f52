package org.example.mm.core;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class RangeTest {
    @Test
    public void lengthAndBounds() {
        Range r = new Range(3, 7);
        assertEquals(3, r.lo());
        assertEquals(7, r.hi());
        assertEquals(5, r.length());
    }

    @Test
    public void containsEnds() {
        Range r = new Range(-2, 2);
        assertTrue(r.contains(-2));
        assertTrue(r.contains(2));
        assertFalse(r.contains(3));
        assertFalse(r.contains(-3));
    }

    @Test
    public void intersectOverlap() {
        assertEquals(new Range(5, 8), new Range(0, 8).intersect(new Range(5, 20)));
    }

    @Test
    public void intersectDisjointIsNull() {
        assertNull(new Range(0, 4).intersect(new Range(5, 9)));
    }

    @Test(expected = IllegalArgumentException.class)
    public void rejectsEmpty() {
        new Range(4, 3);
    }

    @Test
    public void equalsAndToString() {
        assertEquals(new Range(1, 2), new Range(1, 2));
        assertEquals(new Range(1, 2).hashCode(), new Range(1, 2).hashCode());
        assertEquals("[1..2]", new Range(1, 2).toString());
    }
}
