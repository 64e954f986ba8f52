package org.example.stackwalk;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class MeterTest {

    @Test
    public void chargesThreePerUnitAndOne() {
        assertEquals(31, Meter.charge(10));
        if (Meter.notedIn != null) {
            assertEquals("charge", Meter.notedIn);
        }
    }

    /** The line of `mark();` in {@link Meter#bill}, as the unpatched file has it. */
    private static final int MARK_LINE = 41;

    @Test
    public void billsTwoPerUnitAndMarksTheLine() {
        Meter.markedAt = 0;
        assertEquals(20, Meter.bill(10));
        assertEquals(MARK_LINE, Meter.markedAt);
    }

    @Test
    public void feesFourPerUnit() {
        assertEquals(40, Meter.fee(10));
    }
}
