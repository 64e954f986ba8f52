package org.example.kept;

import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertSame;

import org.junit.Test;

public class PairTest {
    /** Initialises Right, whose initialiser writes Left's field. */
    @Test
    public void bothSeen() {
        assertSame(Right.R, Right.valueOf("R"));
        assertSame(Right.R, Left.L.partner());
    }

    /** In a fresh loader Left alone is initialised, and its field is still null. */
    @Test
    public void leftAlone() {
        assertNull(Left.L.partner());
    }
}
