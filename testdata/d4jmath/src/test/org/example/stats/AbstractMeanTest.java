package org.example.stats;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Left out by the fileset's `**\/*Abstract*Test.java`; a subclass's runs would inherit its test. */
public abstract class AbstractMeanTest {

    protected abstract double[] values();

    @Test
    public void meanIsFinite() {
        assertEquals(false, Double.isNaN(Mean.arithmetic(values())));
    }
}
