package org.example.calc;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AccumulatorTest {

    @Test
    public void emptyAccumulator() {
        Accumulator acc = new Accumulator();
        assertEquals(0, acc.getTotal());
        assertEquals(0, acc.getCount());
        assertEquals(0.0, acc.average(), 0.0);
    }

    @Test
    public void addUpdatesTotalAndCount() {
        Accumulator acc = new Accumulator();
        acc.add(4);
        acc.add(6);
        assertEquals(10, acc.getTotal());
        assertEquals(2, acc.getCount());
    }

    @Test
    public void maxTracksLargest() {
        Accumulator acc = new Accumulator();
        acc.add(3);
        acc.add(9);
        acc.add(4);
        assertEquals(9, acc.getMax());
    }

    @Test
    public void maxWithOnlyNegatives() {
        Accumulator acc = new Accumulator();
        acc.add(-5);
        acc.add(-2);
        acc.add(-7);
        assertEquals(-2, acc.getMax());
    }

    @Test
    public void addAllSkipsNegatives() {
        Accumulator acc = new Accumulator();
        acc.addAll(new int[] {1, -2, 3, -4, 5});
        assertEquals(9, acc.getTotal());
        assertEquals(3, acc.getCount());
        assertEquals(5, acc.getMax());
    }

    @Test
    public void averageIsExact() {
        Accumulator acc = new Accumulator();
        acc.add(1);
        acc.add(2);
        assertEquals(1.5, acc.average(), 1e-12);
    }

    @Test
    public void resetClearsEverything() {
        Accumulator acc = new Accumulator();
        acc.addAll(new int[] {10, 20});
        System.out.println("before reset: total=" + acc.getTotal() + " count=" + acc.getCount());
        acc.reset();
        assertEquals(0, acc.getTotal());
        assertEquals(0, acc.getCount());
    }
}
