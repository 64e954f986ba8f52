package org.example.dedup;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class LedgerTest {

    @Test
    public void addAccumulates() {
        Ledger l = new Ledger();
        l.add(3);
        l.add(4);
        assertEquals(7, l.getTotal());
    }

    @Test
    public void addNegative() {
        Ledger l = new Ledger();
        l.add(5);
        l.add(-8);
        assertEquals(-3, l.getTotal());
    }

    @Test
    public void addCountsOperations() {
        Ledger l = new Ledger();
        l.add(1);
        l.add(2);
        assertEquals(2, l.getCount());
    }

    @Test
    public void addRecordsLast() {
        Ledger l = new Ledger();
        l.add(3);
        l.add(-12);
        assertEquals("-12", l.getLast());
    }

    @Test
    public void addZero() {
        Ledger l = new Ledger();
        l.add(0);
        assertEquals(0, l.getTotal());
        assertEquals(1, l.getCount());
        assertEquals("0", l.getLast());
    }

    @Test
    public void withdrawReducesTotal() throws LedgerException {
        Ledger l = new Ledger();
        l.add(10);
        l.withdraw(4);
        assertEquals(6, l.getTotal());
        assertEquals(2, l.getCount());
    }

    @Test
    public void withdrawAll() throws LedgerException {
        Ledger l = new Ledger();
        l.add(7);
        l.withdraw(7);
        assertEquals(0, l.getTotal());
    }

    @Test
    public void withdrawNegativeAddsBack() throws LedgerException {
        Ledger l = new Ledger();
        l.withdraw(-3);
        assertEquals(3, l.getTotal());
        assertEquals(1, l.getCount());
    }

    @Test
    public void withdrawInsufficientThrows() {
        Ledger l = new Ledger();
        l.add(2);
        try {
            l.withdraw(5);
            fail("expected LedgerException");
        } catch (LedgerException e) {
            assertEquals("insufficient balance for 5", e.getMessage());
        }
        assertEquals(2, l.getTotal());
        assertEquals(1, l.getCount());
    }
}
