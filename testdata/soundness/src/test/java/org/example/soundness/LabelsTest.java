package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LabelsTest {

    /** Counts how often its string form is taken. */
    static class CountingItem extends Item {
        int calls;

        CountingItem(String name) {
            super(name);
        }

        @Override
        public String toString() {
            calls++;
            return super.toString();
        }
    }

    @Test
    public void labelShowsTheName() {
        assertEquals("<a>", Labels.label(new Item("a")));
    }

    @Test
    public void labelTakesTheStringFormOnce() {
        CountingItem it = new CountingItem("b");
        assertEquals("<b>", Labels.label(it));
        assertEquals(1, it.calls);
    }
}
