package org.example.envdep;

import static org.junit.Assert.assertNotNull;

import java.security.Security;
import org.junit.Test;

/** Reads JVM-wide security state too, but passes whatever ran before it: it is checked and stays. */
public class ProviderTest {
    @Test
    public void sunProviderIsThere() {
        assertNotNull(Security.getProvider("SUN"));
    }
}
