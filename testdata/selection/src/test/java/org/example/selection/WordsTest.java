package org.example.selection;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;

import org.junit.Test;

/** Runs the comparator's lambda through the static field only. */
public class WordsTest {
    @Test
    public void shortestWord() {
        assertEquals("bee", Sorting.shortest(Arrays.asList("kiwi", "fig", "bee", "plum")));
    }
}
