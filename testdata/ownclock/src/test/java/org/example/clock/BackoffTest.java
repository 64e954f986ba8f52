package org.example.clock;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BackoffTest {
    @Test
    public void firstAttemptWaitsOneMillisecond() {
        assertEquals(1, Backoff.delayMs(0));
    }

    @Test
    public void growsExponentially() {
        assertEquals(2, Backoff.delayMs(1));
        assertEquals(4, Backoff.delayMs(2));
    }

    @Test
    public void isCapped() {
        assertEquals(64, Backoff.delayMs(10));
    }
}
