package org.example.statics;

import static org.junit.Assert.assertEquals;

import java.util.Locale;
import org.junit.Test;

/** Changes a system property and the default Locale (JVM-wide state), and restores both. */
public class PropertyTest {
    @Test
    public void counterStartsFromTheProperty() {
        Locale saved = Locale.getDefault();
        try {
            System.setProperty("statics.start", "5");
            Locale.setDefault(Locale.FRANCE);
            assertEquals(6, Counter.next());
            assertEquals("3,5", String.format("%.1f", 3.5));
        } finally {
            System.clearProperty("statics.start");
            Locale.setDefault(saved);
        }
    }
}
