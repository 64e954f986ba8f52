package org.example.statics;

import static org.junit.Assert.assertEquals;

import java.util.Locale;
import java.util.TimeZone;
import org.junit.Test;

/**
 * Changes a system property, the default Locale and the default TimeZone and leaves them
 * changed: GlobalsBReadTest, which runs after it, must not see any of it.
 */
public class GlobalsALeakTest {
    @Test
    public void loudInTurkish() {
        System.setProperty("statics.mode", "loud");
        Locale.setDefault(new Locale("tr", "TR"));
        TimeZone.setDefault(TimeZone.getTimeZone("Pacific/Chatham"));
        assertEquals("HELLO \u0130R\u0130S!", Greeter.greet("iris"));
    }
}
