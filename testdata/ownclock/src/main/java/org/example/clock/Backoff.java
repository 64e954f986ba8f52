package org.example.clock;

/** How long a client waits before its next attempt. */
public final class Backoff {

    private Backoff() {
    }

    /** 2^attempt milliseconds, at most 64; 1 for the first attempt. */
    public static int delayMs(int attempt) {
        if (attempt <= 0) {
            return 1;
        }
        return Math.max(1 << attempt, 64);
    }
}
