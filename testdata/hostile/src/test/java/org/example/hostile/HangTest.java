package org.example.hostile;

import org.junit.Test;

public class HangTest {

    @Test
    public void spinsForever() {
        while (true) {
        }
    }
}
