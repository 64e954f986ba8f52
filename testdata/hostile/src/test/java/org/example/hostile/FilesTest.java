package org.example.hostile;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import org.junit.Test;

/** Tests that, like many real ones, use files relative to the project root (the working directory). */
public class FilesTest {
    @Test
    public void readsADataFileRelativeToTheProjectRoot() throws Exception {
        String text = new String(Files.readAllBytes(Paths.get("data/greeting.txt")), StandardCharsets.UTF_8);
        assertEquals("hello from the project root\n", text);
    }

    @Test
    public void writesAScratchFileRelativeToTheProjectRoot() throws Exception {
        File out = new File("scratch-output.txt");
        Files.write(out.toPath(), "written by a test".getBytes(StandardCharsets.UTF_8));
        assertTrue(out.isFile());
    }
}
