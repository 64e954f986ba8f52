package org.example.soundness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class MeasureTest {

    @Test
    public void lengthPlusTwice() {
        assertEquals(5, Measure.measure("abc", 1));
    }

    @Test
    public void nullNamesTheSlot() {
        try {
            Measure.measure(null, 1);
            fail();
        } catch (NullPointerException e) {
            assertEquals("Cannot invoke \"String.length()\" because \"<local3>\" is null",
                    e.getMessage());
        }
    }
}
