package org.example.text;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class TokenizerTest {

    @Test
    public void splitsOnWhitespace() throws TokenizeException {
        Tokenizer t = new Tokenizer("foo  bar");
        assertEquals("foo", t.next());
        assertEquals("bar", t.next());
        assertFalse(t.hasNext());
    }

    @Test
    public void punctuationIsSingleToken() throws TokenizeException {
        Tokenizer t = new Tokenizer("a+=b");
        assertEquals("a", t.next());
        assertEquals("+", t.next());
        assertEquals("=", t.next());
        assertEquals("b", t.next());
    }

    @Test
    public void lettersAndDigitsStickTogether() throws TokenizeException {
        Tokenizer t = new Tokenizer(" x1 42");
        assertEquals("x1", t.next());
        assertEquals("42", t.next());
    }

    @Test
    public void hasNextFalseOnBlank() {
        assertFalse(new Tokenizer(" \t\n ").hasNext());
    }

    @Test
    public void hasNextTrueBeforeToken() {
        assertTrue(new Tokenizer("  z").hasNext());
    }

    @Test(expected = TokenizeException.class)
    public void nextAtEndThrows() throws TokenizeException {
        Tokenizer t = new Tokenizer("one ");
        t.next();
        t.next();
    }

    @Test
    public void countTokensOfStatement() throws TokenizeException {
        assertEquals(5, new Tokenizer("int x = 42;").countTokens());
    }

    @Test
    public void skipWhitespaceMovesPosition() {
        Tokenizer t = new Tokenizer("   ab");
        t.skipWhitespace();
        assertEquals(3, t.position());
    }
}
