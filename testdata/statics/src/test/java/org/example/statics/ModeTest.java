package org.example.statics;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Each test expects the enum constants' counters from zero, as a fresh class loader gives them. */
public class ModeTest {
    @Test
    public void firstUse() {
        assertEquals(1, Mode.FAST.use());
    }

    @Test
    public void firstUseAgain() {
        assertEquals(1, Mode.FAST.use());
        assertEquals(1, Mode.SAFE.use());
    }
}
