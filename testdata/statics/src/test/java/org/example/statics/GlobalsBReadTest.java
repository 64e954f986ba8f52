package org.example.statics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotEquals;

import java.util.TimeZone;
import org.junit.Test;

/** Sees the JVM's own system properties, default Locale and TimeZone, whatever GlobalsALeakTest left. */
public class GlobalsBReadTest {
    @Test
    public void quietByDefault() {
        assertEquals("hello iris", Greeter.greet("iris"));
    }

    @Test
    public void defaultLocaleAndZone() {
        assertEquals("TITLE", "title".toUpperCase());
        assertNotEquals("Pacific/Chatham", TimeZone.getDefault().getID());
    }
}
