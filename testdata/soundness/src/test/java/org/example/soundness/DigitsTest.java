package org.example.soundness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class DigitsTest {

    @Test
    public void sumOfDigits() {
        assertEquals(10, Digits.sum("1234"));
    }

    @Test
    public void errorPositionInTheMiddle() {
        try {
            Digits.sum("12x4");
            fail("no ParseError");
        } catch (ParseError e) {
            assertEquals("parse error", e.getMessage());
            assertEquals(2, e.pos);
        }
    }

    @Test
    public void errorPositionAtTheStart() {
        try {
            Digits.sum("x1");
            fail("no ParseError");
        } catch (ParseError e) {
            assertEquals(0, e.pos);
        }
    }
}
