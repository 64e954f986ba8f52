package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StepperTest {

    @Test
    public void nextAddsTenWithoutLoadingDefaults() {
        assertEquals(15, Stepper.next(5));
        assertEquals(0, Trace.loads);
    }

    @Test
    public void defaultsLoadOnce() {
        assertEquals(10, Defaults.STEP);
        assertEquals(1, Trace.loads);
    }
}
