package org.example.selection;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import org.junit.Test;

public class LedgerTest {
    @Test
    public void openingLines() {
        assertEquals(Arrays.asList("open 0", "open 1", "open 2"), new Ledger().lines());
    }

    @Test
    public void openingBalance() {
        assertEquals(300, new Ledger(5).opening());
    }

    @Test
    public void limitFromEitherConstructor() {
        assertEquals(5, new Ledger(5).limit());
        assertEquals(1000, new Ledger().limit());
    }
}
