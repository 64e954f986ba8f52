package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TallyTest {

    @Test
    public void numbersAndPenalties() {
        assertEquals(202, Tally.count(new String[] {"1", "ab", "2"}));
    }

    @Test
    public void nothingToCount() {
        assertEquals(0, Tally.count(new String[0]));
    }

    @Test
    public void onePenalty() {
        assertEquals(3, Tally.count(new String[] {"xyz"}));
    }
}
