package org.example.selection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class VaultTest {
    @Test
    public void checksumOfTwo() {
        Vault v = new Vault.Builder().add("ab").add("cde").build();
        assertEquals(6792, v.checksum());
        assertEquals(2, v.entries().size());
    }

    @Test
    public void emptyChecksum() {
        Vault v = new Vault.Builder().build();
        assertEquals(7, v.checksum());
        assertTrue(v.entries().isEmpty());
    }
}
