package org.example.tables;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class SquaresTest {
    @Test
    public void threeIsNine() {
        assertEquals(9, Squares.of(3));
    }

    @Test
    public void threeAndFour() {
        assertEquals(9, Squares.of(3));
        assertEquals(16, Squares.of(4));
    }
}
