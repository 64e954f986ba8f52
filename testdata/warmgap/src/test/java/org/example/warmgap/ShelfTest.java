package org.example.warmgap;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Each test takes the first item of a fresh shelf: true in a fresh class loader only. */
public class ShelfTest {
    @Test
    public void firstTake() {
        assertEquals(1, Shelf.MAIN.take());
    }

    @Test
    public void secondTake() {
        assertEquals(1, Shelf.MAIN.take());
    }
}
