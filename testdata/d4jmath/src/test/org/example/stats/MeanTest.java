package org.example.stats;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class MeanTest {

    @Test
    public void meanOfTwo() {
        assertEquals(2.0, Mean.arithmetic(new double[] {1.0, 3.0}), 1e-12);
    }

    @Test
    public void meanOfOne() {
        assertEquals(5.0, Mean.arithmetic(new double[] {5.0}), 1e-12);
    }

    @Test
    public void meanOfNone() {
        assertEquals(0.0, Mean.arithmetic(new double[0]), 0.0);
    }

    @Test
    public void meanOfTheHeightsFile() throws Exception {
        assertEquals(170.0, Mean.arithmetic(Samples.read("data/heights.txt")), 1e-12);
    }

    @Test
    public void heightsFileHasFiveValues() throws Exception {
        assertEquals(5, Samples.read("data/heights.txt").length);
    }
}
