package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ScalerTest {

    /** Observes how often factor() is called; the factor itself is unchanged. */
    static class CountingScaler extends Scaler {
        int calls;

        @Override
        public int factor() {
            calls++;
            return super.factor();
        }
    }

    static class TripleScaler extends Scaler {
        @Override
        public int factor() {
            return 3;
        }
    }

    @Test
    public void scaleDoubles() {
        assertEquals(14, new Scaler().scale(7));
    }

    @Test
    public void scaleCallsFactorOnce() {
        CountingScaler s = new CountingScaler();
        assertEquals(10, s.scale(5));
        assertEquals(1, s.calls);
    }

    @Test
    public void scaleUsesTheOverriddenFactor() {
        assertEquals(15, new TripleScaler().scale(5));
    }
}
