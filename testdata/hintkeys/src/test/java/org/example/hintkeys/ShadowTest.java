package org.example.hintkeys;

import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertTrue;

import org.junit.Before;
import org.junit.Test;

public class ShadowTest {
    @Before
    public void keepKey() {
        Keeper.keep(Chart.KEY_SHADOW);
    }

    @Test
    public void shadowByDefault() {
        assertTrue(new Chart(5).shadow());
    }

    @Test
    public void shadowOff() {
        Chart c = new Chart(5);
        c.setShadow(false);
        assertFalse(c.shadow());
    }

    @Test
    public void keyTakesBooleans() {
        assertTrue(Chart.KEY_SHADOW.isCompatibleValue(Boolean.FALSE));
        assertFalse(Chart.KEY_SHADOW.isCompatibleValue("no"));
    }
}
