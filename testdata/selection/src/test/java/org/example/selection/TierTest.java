package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TierTest {
    @Test
    public void silverAndGoldLimits() {
        assertEquals(400, Tier.SILVER.limit());
        assertEquals(900, Tier.GOLD.limit());
    }
}
