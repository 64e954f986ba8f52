package org.example.stats;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Named like commons-math's *TestBinary classes, which Defects4J's Math fileset includes. */
public class TrimmedMeanTestBinary {

    @Test
    public void trimmedDropsTheExtremes() {
        assertEquals(3.0, Mean.trimmed(new double[] {100.0, 2.0, 3.0, 4.0, -50.0}), 1e-12);
    }

    @Test
    public void trimmedOfTwoIsTheMean() {
        assertEquals(0.0, Mean.trimmed(new double[] {0.0, 0.0}), 1e-12);
    }
}
