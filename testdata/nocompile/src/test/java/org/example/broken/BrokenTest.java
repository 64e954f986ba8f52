package org.example.broken;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BrokenTest {

    @Test
    public void answerIsFortyTwo() {
        assertEquals(42, Broken.answer());
    }
}
