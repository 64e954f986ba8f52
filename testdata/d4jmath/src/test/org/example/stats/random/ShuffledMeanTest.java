package org.example.stats.random;

import static org.junit.Assert.assertEquals;

import org.example.stats.Mean;
import org.junit.Test;

/** Left out by the fileset's `**\/random/*.java`, as commons-math's random tests are. */
public class ShuffledMeanTest {

    @Test
    public void orderDoesNotMatter() {
        assertEquals(Mean.arithmetic(new double[] {1.0, 2.0, 6.0}),
            Mean.arithmetic(new double[] {6.0, 1.0, 2.0}), 1e-12);
    }
}
