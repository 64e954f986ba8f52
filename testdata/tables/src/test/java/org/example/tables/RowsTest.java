package org.example.tables;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class RowsTest {
    @Test
    public void rowOneStartsAtTen() {
        int[] r = Rows.row(1);
        assertEquals(10, r[0]);
        r[0] = -1;
    }

    @Test
    public void rowOneStillStartsAtTen() {
        int[] r = Rows.row(1);
        assertEquals(10, r[0]);
        r[0] = -2;
    }
}
