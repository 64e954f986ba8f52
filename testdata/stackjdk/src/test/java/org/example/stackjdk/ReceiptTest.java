package org.example.stackjdk;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ReceiptTest {

    @Test
    public void totalAddsTenPercent() {
        assertEquals(110, Receipt.total(100, "tag"));
        for (String where : new String[] {Receipt.taggedIn, Receipt.comparedIn, Receipt.notedIn,
            Receipt.iteratedIn, Receipt.loggedIn}) {
            if (where != null) {
                assertEquals("total", where);
            }
        }
    }
}
