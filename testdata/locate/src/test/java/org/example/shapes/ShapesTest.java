package org.example.shapes;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ShapesTest {
    @Test
    public void areaOfANegativeSide() {
        assertEquals(4, Shapes.boxOf(-2).area());
    }

    @Test
    public void areaOfThree() {
        assertEquals(9, Shapes.boxOf(3).area());
    }

    @Test
    public void largestOfThree() {
        assertEquals(16, Shapes.largest(Shapes.boxOf(1), Shapes.boxOf(-4), Shapes.boxOf(2)));
    }

    @Test
    public void perimeterOfZero() {
        assertEquals(0, Shapes.perimeter(Shapes.boxOf(0)));
    }

    @Test
    public void perimeterOfOne() {
        assertEquals(4, Shapes.perimeter(Shapes.boxOf(1)));
    }

    @Test
    public void perimeterOfTwo() {
        assertEquals(8, Shapes.perimeter(Shapes.boxOf(-2)));
    }
}
