package org.example.kept;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TokenTest {
    @Test
    public void charsOfStart() {
        assertArrayEquals(new char[] {'{'}, Token.START.asChars());
    }

    /** Writes a token's characters: a test after it must still see the initialiser's. */
    @Test
    public void firstScribbles() {
        Token.TRUE.asChars()[0] = 'T';
        assertEquals('T', Token.TRUE.asChars()[0]);
    }

    @Test
    public void thenIntact() {
        assertArrayEquals("true".toCharArray(), Token.TRUE.asChars());
    }

    @Test
    public void widths() {
        assertEquals(1, Token.START.width());
        assertEquals(4, Token.NULL.width());
    }
}
