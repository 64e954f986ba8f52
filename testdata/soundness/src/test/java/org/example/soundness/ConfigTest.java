package org.example.soundness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import org.junit.Test;

public class ConfigTest {

    @Test
    public void parsesPort() {
        assertEquals(8080, Config.port("8080"));
    }

    @Test
    public void badPortKeepsTheCause() {
        try {
            Config.port("80a");
            fail("no ConfigError");
        } catch (ConfigError e) {
            assertEquals("bad port", e.getMessage());
            assertTrue(String.valueOf(e.getCause()), e.getCause() instanceof NumberFormatException);
            assertEquals("For input string: \"80a\"", e.getCause().getMessage());
        }
    }
}
