package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Gift overrides the default method, so these tests never run it. */
public class GiftTest {
    @Test
    public void giftPriceIsFlat() {
        assertEquals(500, new Gift(500).priceFor(20));
        assertEquals(500, new Gift(500).priceFor(1));
    }
}
