package org.example.soundness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class QuotaTest {

    @Test
    public void takesOneUnit() {
        assertEquals(2, Quota.take(3));
        assertEquals(0, CountedError.created);
    }

    @Test
    public void exhaustedCreatesOneError() {
        try {
            Quota.take(0);
            fail("no CountedError");
        } catch (CountedError e) {
            assertEquals("quota exhausted", e.getMessage());
            assertEquals(1, CountedError.created);
        }
    }
}
