package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StepsTest {

    @Test
    public void fillsFourSquares() {
        assertEquals(4, Steps.count());
        assertEquals(9, Steps.at(3));
        assertEquals(0, Steps.at(4));
    }
}
