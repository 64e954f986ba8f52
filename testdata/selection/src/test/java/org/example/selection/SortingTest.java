package org.example.selection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.util.Arrays;
import java.util.Comparator;

import org.junit.Test;

public class SortingTest {
    @Test
    public void factoryComparatorOrdersByLength() {
        Comparator<String> c = Sorting.byLength();
        assertTrue(c.compare("ab", "b") > 0);
        assertTrue(c.compare("b", "ab") < 0);
        assertEquals(0, c.compare("ab", "ab"));
    }

    @Test
    public void sortsByLengthThenAlphabet() {
        assertEquals(Arrays.asList("fig", "kiwi", "pear", "apple"),
                Sorting.sorted(Arrays.asList("pear", "fig", "kiwi", "apple")));
    }
}
