package org.example.flaky;

import static org.junit.Assert.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.Test;

/**
 * Fails on every second run in a working directory, as an unseeded random sample or a wall-clock
 * bound fails now and then: the run count is kept in {@code runs.txt}.
 */
public class EverySecondRunTest {
    @Test
    public void failsOnEverySecondRun() throws IOException {
        Path runs = Paths.get("runs.txt");
        int n = 1;
        if (Files.exists(runs)) {
            n += Integer.parseInt(new String(Files.readAllBytes(runs), StandardCharsets.UTF_8).trim());
        }
        Files.write(runs, String.valueOf(n).getBytes(StandardCharsets.UTF_8));
        // Reaches the patched location; its value is only printed, so patches that differ here
        // all pass, each in a run of its own.
        int clamped = Clamp.clamp(1000, 0, 10);
        assertTrue("run " + n + " in this directory (clamped: " + clamped + ")", n % 2 == 1);
    }
}
