package org.example.rates;

import static org.junit.Assert.assertEquals;

import java.io.StringReader;
import java.util.Set;
import java.util.TreeSet;
import org.junit.AfterClass;
import org.junit.BeforeClass;
import org.junit.FixMethodOrder;
import org.junit.Test;
import org.junit.runners.MethodSorters;

/**
 * Tests that pass only when the class runs whole, in name order, as surefire runs it: the last
 * test needs what the two before it left, and the class-level check needs all three.
 */
@FixMethodOrder(MethodSorters.NAME_ASCENDING)
public class LedgerTest {

    private static final Set<String> PRICED = new TreeSet<>();
    private static Rates rates;

    @BeforeClass
    public static void load() throws Exception {
        rates = Rates.parse(new StringReader("a = 1\nb = 2\nc = 3\n"));
    }

    @Test
    public void a1_priceOfA() {
        PRICED.add("a");
        assertEquals(1, rates.total("a"));
    }

    @Test
    public void a2_priceOfB() {
        PRICED.add("b");
        assertEquals(2, rates.total("b"));
    }

    @Test
    public void b_pricedSoFar() {
        PRICED.add("c");
        assertEquals("[a, b, c]", PRICED.toString());
    }

    @AfterClass
    public static void everyNameWasPriced() {
        assertEquals(3, PRICED.size());
    }
}
