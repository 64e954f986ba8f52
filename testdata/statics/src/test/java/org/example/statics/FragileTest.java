package org.example.statics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class FragileTest {
    @Test
    public void brokenInitialiserFailsThenTheClassIsUnusable() {
        Switch.broken = true;
        try {
            fail("initialised: " + Fragile.VALUE);
        } catch (ExceptionInInitializerError e) {
            assertEquals("broken", e.getCause().getMessage());
        }
        try {
            fail("initialised: " + Fragile.VALUE);
        } catch (NoClassDefFoundError e) {
            assertEquals("Could not initialize class org.example.statics.Fragile", e.getMessage());
        }
    }

    @Test
    public void worksInTheNextTest() {
        assertEquals("ok", Fragile.VALUE);
    }
}
