package org.example.kept;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ShadeTest {
    @Test
    public void twoShades() {
        assertEquals(2, Palette.size());
    }

    @Test
    public void labelsInOrder() {
        assertEquals("dark,light", Palette.labels());
    }
}
