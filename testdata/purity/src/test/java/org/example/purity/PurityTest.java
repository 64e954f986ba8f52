package org.example.purity;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class PurityTest {

    @Test
    public void scaleDoesNotConsultFactor() {
        CountingScaler s = new CountingScaler();
        assertEquals(10, s.scale(5));
        assertEquals(0, s.calls);
    }

    @Test
    public void scaleDoubles() {
        assertEquals(6, new Scaler().scale(3));
    }

    @Test
    public void negativeIsRejectedWithoutATally() {
        try {
            Guard.check(-1);
            fail("no exception");
        } catch (RuntimeException e) {
            assertEquals(0, Tally.made);
        }
    }

    @Test
    public void positivePasses() {
        assertEquals(4, Guard.check(4));
    }

    @Test
    public void describeLeavesTheLabelUnrendered() {
        assertEquals("n=4", Describer.describe(new Label(), 4));
        assertEquals(0, Label.rendered);
    }

    @Test
    public void presentKeepsTheAccessOrder() {
        Cache c = new Cache();
        c.put("a", 1);
        c.put("b", 2);
        assertEquals(1, c.present("a"));
        assertEquals("a", c.eldest());
    }

    @Test
    public void idLoadsNoPlugin() {
        assertEquals(7, Ids.id(7));
        assertEquals(0, Registry.loads);
    }
}
