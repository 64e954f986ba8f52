package org.example.envdep;

import static org.junit.Assert.assertEquals;

import java.security.Security;
import org.junit.Test;

public class RatioTest {
    /** Puts the JVM in strict mode for the tests after it (a JVM-wide security property). */
    @Test
    public void halfInStrictMode() {
        Security.setProperty("envdep.mode", "strict");
        assertEquals(50, Ratio.percent(1, 2));
    }

    @Test
    public void emptyWhole() {
        assertEquals(0, Ratio.percent(3, 0));
    }

    @Test
    public void noPart() {
        assertEquals(0, Ratio.percent(0, 7));
    }
}
