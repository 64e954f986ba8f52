package org.example.statics;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class RegistryATest {
    @Test
    public void addOne() {
        assertEquals(1, Registry.add("a"));
    }

    @Test
    public void addTwo() {
        Registry.add("a");
        assertEquals(2, Registry.add("b"));
    }
}
