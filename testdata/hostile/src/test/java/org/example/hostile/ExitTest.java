package org.example.hostile;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ExitTest {

    @Test
    public void callsSystemExit() {
        System.exit(1);
    }

    @Test
    public void passesAfterExit() {
        Counter c = new Counter();
        c.add(3);
        assertEquals(3, c.get());
    }
}
