package org.example.statics;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class WidgetTest {
    @Test
    public void countsInstances() {
        new Widget();
        assertEquals(1, Widget.made);
    }

    @Test
    public void countsInstancesAgain() {
        new Widget();
        new Widget();
        assertEquals(2, Widget.made);
    }

    @Test
    public void subclassWithoutStaticsInitialisesItsSuperclass() {
        assertEquals(1, new Leaf().value());
        assertEquals(1, Base.inits);
    }

    @Test
    public void subclassAgain() {
        new Leaf();
        assertEquals(1, Base.inits);
    }

    @Test
    public void enumConstantsStayTheSame() {
        assertEquals(Level.HIGH, Level.LOW.other());
        assertTrue(Level.valueOf("LOW") == Level.LOW);
    }

    private static void assertTrue(boolean b) {
        org.junit.Assert.assertTrue(b);
    }
}
