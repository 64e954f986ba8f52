package org.example.soundness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class GuardTest {

    @Test
    public void passesNonNegative() {
        assertEquals(3, Guard.check(3));
    }

    @Test
    public void negativeIsNoisyAndItsMessageUnread() {
        try {
            Guard.check(-1);
            fail("no NoisyError");
        } catch (NoisyError e) {
            assertEquals(0, NoisyError.reads);
            assertEquals("noisy: negative", e.getMessage());
            assertEquals(1, NoisyError.reads);
        }
    }
}
