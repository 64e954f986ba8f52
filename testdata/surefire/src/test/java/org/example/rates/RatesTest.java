package org.example.rates;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertSame;
import static org.junit.Assert.assertTrue;

import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.net.URL;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;
import org.junit.Test;

/** Tests that read their input the way tests run by Maven's surefire may: through the system class loader. */
public class RatesTest {

    private static Rates week() throws Exception {
        URL url = ClassLoader.getSystemResource("baskets/week.rates");
        assertNotNull("baskets/week.rates through the system class loader", url);
        try (Reader r = new InputStreamReader(url.openStream(), "UTF-8")) {
            return Rates.parse(r);
        }
    }

    @Test
    public void totalOfTheWeek() throws Exception {
        assertEquals(740, week().total("apples", "rice", "eggs"));
    }

    @Test
    public void totalOfTheBuiltInRates() throws Exception {
        assertEquals(210, Rates.builtIn().total("tea", "milk"));
    }

    @Test
    public void builtInRatesAreThree() throws Exception {
        assertEquals(3, Rates.builtIn().size());
    }

    @Test
    public void theWeekIsFoundOnceAmongTheSystemResources() throws Exception {
        List<URL> all = Collections.list(ClassLoader.getSystemResources("baskets/week.rates"));
        assertEquals(1, all.size());
        assertEquals(3, week().size());
    }

    @Test
    public void theSystemClassLoaderLoadsTheClassUnderTest() throws Exception {
        ClassLoader system = ClassLoader.getSystemClassLoader();
        assertSame(Rates.class, system.loadClass("org.example.rates.Rates"));
        assertSame(Rates.class, Class.forName("org.example.rates.Rates", true, system));
    }

    @Test
    public void theWeekLessItsDiscount() throws Exception {
        assertEquals(730, week().discounted("apples", "rice", "eggs"));
    }

    @Test
    public void theClassPathStartsWithTheTests() throws Exception {
        URL root = RatesTest.class.getClassLoader().getResource("");
        assertEquals("file", root.getProtocol());
        assertTrue(root.getPath(), new java.io.File(root.toURI()).toPath().resolve("baskets/week.rates").toFile().isFile());
    }

    @Test
    public void aSingleNameIsItsPrice() throws Exception {
        assertEquals(120, Rates.parse(new StringReader("tea = 120\n")).get("tea"));
    }

    @Test(expected = NoSuchElementException.class)
    public void anUnknownNameHasNoPrice() throws Exception {
        Rates.parse(new StringReader("")).get("coffee");
    }

    @Test
    public void nothingCostsNothing() throws Exception {
        assertTrue(week().total() == 0);
    }
}
