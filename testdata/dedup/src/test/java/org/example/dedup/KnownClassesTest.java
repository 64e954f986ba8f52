package org.example.dedup;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** The only test that calls Picker.pick, and it calls it exactly once. */
public class KnownClassesTest {

    @Test
    public void pickOnce() {
        assertEquals(5, Picker.pick(5));
    }
}
