package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class TaxTest {
    @Test
    public void taxOfIncome() {
        assertEquals(3500, Rates.tax(25000));
        assertEquals(11500, Rates.tax(55000));
    }
}
