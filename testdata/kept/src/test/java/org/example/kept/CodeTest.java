package org.example.kept;

import static org.junit.Assert.assertSame;

import org.junit.Test;

public class CodeTest {
    @Test
    public void alphaByLetter() {
        assertSame(Code.ALPHA, Names.byLetter("a"));
    }

    @Test
    public void betaByLetter() {
        assertSame(Code.BETA, Names.byLetter("b"));
    }
}
