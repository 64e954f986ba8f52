package org.example.kept;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class StampTest {
    @Test
    public void twoTagsMade() {
        assertEquals("paid", Stamp.PAID.tag().text());
        assertEquals(2, Tag.made());
    }

    @Test
    public void stillTwoTagsMade() {
        assertEquals("void", Stamp.VOID.tag().text());
        assertEquals(2, Tag.made());
    }
}
