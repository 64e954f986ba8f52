package org.example.statics;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class InitOrderTest {
    @Test
    public void superclassFirst() {
        assertEquals(2, Second.id());
        assertEquals(Arrays.asList("First", "Second"), Trace.EVENTS);
    }

    @Test
    public void constantNeedsNoInit() {
        assertEquals("config", Config.NAME);
        assertEquals(Arrays.asList(), Trace.EVENTS);
    }
}
