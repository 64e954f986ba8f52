package org.example.stats;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Has test methods but matches no include of the fileset: Defects4J does not run it. */
public class MeanScenarios {

    @Test
    public void scenarioOfFour() {
        assertEquals(2.5, Mean.arithmetic(new double[] {1.0, 2.0, 3.0, 4.0}), 1e-12);
    }
}
