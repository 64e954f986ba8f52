package org.example.stackjdk;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Two tests, so that the second one runs after a reset of the first one's static state. */
public class BootTest {

    private static void check() {
        assertEquals(1, Boot.loads);
        if (Boot.initIn != null) {
            assertEquals("<clinit>", Boot.initIn);
        }
        if (Boot.origin != null) {
            assertEquals("<clinit>", Boot.origin.getStackTrace()[0].getMethodName());
        }
    }

    @Test
    public void initialisedOnce() {
        check();
    }

    @Test
    public void initialisedOnceAgain() {
        check();
    }
}
