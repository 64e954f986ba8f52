package org.example.statics;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** Each test expects the interface's list empty, as a fresh class loader gives it. */
public class CatalogTest {
    @Test
    public void addOne() {
        Catalog.ENTRIES.add("one");
        assertEquals(1, Catalog.ENTRIES.size());
    }

    @Test
    public void addAnother() {
        Catalog.ENTRIES.add("another");
        assertEquals(1, Catalog.ENTRIES.size());
    }
}
