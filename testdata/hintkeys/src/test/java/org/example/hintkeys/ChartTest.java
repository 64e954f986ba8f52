package org.example.hintkeys;

import static org.junit.Assert.assertEquals;

import org.junit.Before;
import org.junit.Test;

public class ChartTest {
    @Before
    public void keepKey() {
        Keeper.keep(Chart.KEY_SHADOW);
    }

    @Test
    public void barWidthOfOne() {
        assertEquals(10, new Chart(10).barWidth(1));
    }

    @Test
    public void barWidthOfThree() {
        assertEquals(3, new Chart(11).barWidth(3));
    }

    @Test
    public void barWidthOfFour() {
        assertEquals(5, new Chart(23).barWidth(4));
    }
}
