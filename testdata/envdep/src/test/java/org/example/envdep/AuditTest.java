package org.example.envdep;

import static org.junit.Assert.assertNull;

import java.security.Security;
import org.junit.Test;

/**
 * Passes only in a JVM where no test before it set the security property: in the baseline (this
 * class comes before RatioTest, or runs in another worker) it passes, in plain validation's order,
 * which runs the trigger test RatioTest#halfInStrictMode first, it fails.
 */
public class AuditTest {
    @Test
    public void noModeSet() {
        assertNull(Security.getProperty("envdep.mode"));
    }
}
