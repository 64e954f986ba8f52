package org.example.selection;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.junit.Test;

public class RangesTest {
    @Test
    public void exhaustedIteratorThrows() {
        Iterator<Integer> it = Ranges.stepping(5, 6, 2);
        assertEquals(Integer.valueOf(5), it.next());
        assertFalse(it.hasNext());
        try {
            it.next();
        } catch (NoSuchElementException expected) {
            return;
        }
        throw new AssertionError("next() past the end did not throw");
    }

    @Test
    public void steppingByThree() {
        List<Integer> out = new ArrayList<>();
        for (Iterator<Integer> it = Ranges.stepping(0, 10, 3); it.hasNext();) {
            out.add(it.next());
        }
        assertEquals(Arrays.asList(0, 3, 6, 9), out);
    }
}
