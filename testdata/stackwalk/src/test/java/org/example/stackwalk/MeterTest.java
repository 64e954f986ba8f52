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
}
