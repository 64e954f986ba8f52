package org.example.kept;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TextTest {
    @Test
    public void endText() {
        assertEquals("}", Token.END.text());
        assertEquals("}", new String(Token.END.asChars()));
    }

    @Test
    public void trueText() {
        assertEquals("true", new String(Token.TRUE.asChars()));
    }
}
