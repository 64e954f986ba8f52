package org.example.unstable;

import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.Test;

/**
 * Stands for a test that passes or fails by chance in a JVM that ran other tests before it, as
 * commons-lang3's FastDateParser_TimeZoneStrategyTest once failed under plain validation for one
 * patch of a set whose other, equivalent patches passed. The chance is made repeatable: when the
 * environment variable UNSTABLE_FAILURES names a file holding a number n greater than 0, the test
 * writes n - 1 there and fails; otherwise it passes.
 */
public class ChanceTest {
    @Test
    public void walksEveryZone() throws IOException {
        int width = Span.count(0, 9);
        String file = System.getenv("UNSTABLE_FAILURES");
        if (file == null) {
            return;
        }
        Path path = Paths.get(file);
        if (!Files.exists(path)) {
            return;
        }
        int left = Integer.parseInt(new String(Files.readAllBytes(path), StandardCharsets.UTF_8).trim());
        if (left <= 0) {
            return;
        }
        Files.write(path, String.valueOf(left - 1).getBytes(StandardCharsets.UTF_8));
        assertTrue("failed by chance (" + (left - 1) + " more to come; width " + width + ")", false);
    }
}
