package org.example.selection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class ArchiveTest {
    @Test
    public void orderMatters() {
        Vault ab = new Vault.Builder().add("a").add("bb").build();
        Vault ba = new Vault.Builder().add("bb").add("a").build();
        assertFalse(ab.checksum() == ba.checksum());
        assertEquals("bb", ba.entries().get(0));
    }
}
