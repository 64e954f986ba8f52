package org.example.kept;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.fail;

import org.junit.Test;

public class BrokenTest {
    /** As a fresh loader does for each test: the initialiser's ArithmeticException, wrapped. */
    private static void initialiserThrows() {
        try {
            Broken.ONLY.inverse();
            fail("Broken initialised");
        } catch (ExceptionInInitializerError e) {
            assertEquals(ArithmeticException.class, e.getCause().getClass());
        }
    }

    @Test
    public void first() {
        initialiserThrows();
    }

    @Test
    public void second() {
        initialiserThrows();
    }
}
