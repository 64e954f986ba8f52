package org.example.selection;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CartTest {
    @Test
    public void cartTotal() {
        Cart cart = new Cart().add(new Book(333), 12).add(new Gift(100), 5).add(new Book(250), 2);
        assertEquals(3596 + 100 + 500, cart.total());
    }
}
