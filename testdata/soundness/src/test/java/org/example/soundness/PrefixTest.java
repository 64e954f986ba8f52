package org.example.soundness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import org.junit.Test;

public class PrefixTest {

    @Test
    public void aJoinedHeadIsANewString() {
        assertFalse(Prefix.folds("abc"));
        assertEquals("ab", Prefix.last);
    }
}
