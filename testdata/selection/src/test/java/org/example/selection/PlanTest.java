package org.example.selection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import org.junit.Test;

/** Reads the limits the enum's initialisation computed, without calling limitFor. */
public class PlanTest {
    @Test
    public void tierForAmount() {
        assertEquals(Tier.BRONZE, Tier.forAmount(50));
        assertEquals(Tier.SILVER, Tier.forAmount(250));
        assertEquals(Tier.GOLD, Tier.forAmount(900));
        assertNull(Tier.forAmount(901));
    }
}
