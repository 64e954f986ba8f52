package org.example.selection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

/** The first tests to touch Tier (so the ones that initialise it in a shared loader): BRONZE only. */
public class AccountTest {
    @Test
    public void bronzeRemaining() {
        Account a = new Account(Tier.BRONZE);
        assertTrue(a.spend(30));
        assertEquals(70, a.remaining());
    }

    @Test
    public void bronzeSpendsUpToItsLimit() {
        Account a = new Account(Tier.BRONZE);
        assertTrue(a.spend(60));
        assertTrue(a.spend(40));
        assertFalse(a.spend(1));
    }
}
