package org.example.soundness;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertNull;

import java.util.Arrays;
import org.junit.Test;

public class RecentTest {

    private static Recent abc() {
        Recent r = new Recent();
        r.remember("a");
        r.remember("bb");
        r.remember("ccc");
        return r;
    }

    @Test
    public void lookupFindsTheLength() {
        assertEquals(Integer.valueOf(2), abc().lookup("bb"));
    }

    @Test
    public void lookupMakesTheWordMostRecent() {
        Recent r = abc();
        assertEquals(Integer.valueOf(1), r.lookup("a"));
        assertEquals(Arrays.asList("bb", "ccc", "a"), r.order());
    }

    @Test
    public void lookupOfAMissingWord() {
        Recent r = abc();
        assertNull(r.lookup("zz"));
        assertEquals(Arrays.asList("a", "bb", "ccc"), r.order());
    }
}
