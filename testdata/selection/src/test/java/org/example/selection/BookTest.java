package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class BookTest {
    @Test
    public void priceForFew() {
        assertEquals(750, new Book(250).priceFor(3));
    }

    @Test
    public void priceForTen() {
        assertEquals(2250, new Book(250).priceFor(10));
    }
}
