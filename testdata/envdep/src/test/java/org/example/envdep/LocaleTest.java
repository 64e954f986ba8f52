package org.example.envdep;

import static org.junit.Assert.assertEquals;

import java.util.Locale;
import org.junit.Test;

/** Reads the JVM's default locale, but passes whatever ran before it: it stays. */
public class LocaleTest {
    @Test
    public void percentIsTheSameInEveryLocale() {
        String shown = String.format(Locale.getDefault(), "%d", Ratio.percent(1, 4));
        assertEquals(String.valueOf(Ratio.percent(1, 4)), shown.replaceAll("[^0-9-]", ""));
    }
}
