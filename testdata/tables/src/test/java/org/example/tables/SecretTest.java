package org.example.tables;

import static org.junit.Assert.assertEquals;

import java.lang.reflect.Field;
import org.junit.Test;

public class SecretTest {
    private static int[] values() throws Exception {
        Field f = Secret.class.getDeclaredField("VALUES");
        f.setAccessible(true);
        return (int[]) f.get(null);
    }

    @Test
    public void writtenByReflection() throws Exception {
        assertEquals(3, Secret.get(2));
        values()[2] = 42;
        assertEquals(42, Secret.get(2));
    }

    @Test
    public void writtenByReflectionAgain() throws Exception {
        assertEquals(3, Secret.get(2));
        values()[2] = 43;
    }
}
