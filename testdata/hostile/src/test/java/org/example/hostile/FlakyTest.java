package org.example.hostile;

import static org.junit.Assert.fail;

import java.io.File;
import java.io.IOException;
import org.junit.Test;

/** A test that fails the first time it runs and passes afterwards, as flaky tests do. */
public class FlakyTest {
    @Test
    public void failsOnlyTheFirstTime() throws IOException {
        File marker = new File("flaky-marker.txt");
        if (marker.createNewFile()) {
            fail("first run");
        }
    }
}
