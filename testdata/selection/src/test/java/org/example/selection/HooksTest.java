package org.example.selection;

import static org.junit.Assert.assertEquals;

import java.lang.reflect.Method;

import org.junit.Test;

/** Calls the private handler by name, the only way it is ever called. */
public class HooksTest {
    private static String call(String name, int count) throws Exception {
        Method m = Hooks.class.getDeclaredMethod("onEvent", String.class, int.class);
        m.setAccessible(true);
        return (String) m.invoke(null, name, count);
    }

    @Test
    public void oneEvent() throws Exception {
        assertEquals("save: 1 event", call("save", 1));
    }

    @Test
    public void zeroAndManyEvents() throws Exception {
        assertEquals("load: 0 events", call("load", 0));
        assertEquals("tick: 12 events", call("tick", 12));
    }
}
