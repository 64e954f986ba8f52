package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BandsTest {

    @Test
    public void sumsThePositiveWeights() {
        assertEquals(606, Bands.total(new int[] {1, 2, 3, 4, 5, 6}));
    }

    @Test
    public void nothingToSum() {
        assertEquals(0, Bands.total(new int[0]));
    }

    @Test
    public void onlyNegativeWeights() {
        assertEquals(2, Bands.total(new int[] {5, 10}));
    }
}
