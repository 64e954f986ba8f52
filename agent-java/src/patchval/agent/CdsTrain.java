// patchval agent: CdsTrain owns the training run behind the workers' class-data archive: a JVM with
// the worker's class path and options (and -XX:ArchiveClassesAtExit) that serves a few requests as a
// worker would — a compile, a test in a fresh and in a warm loader — so that the classes they load
// (javac, JUnit, the agent, ASM) are in the archive when it exits.
package patchval.agent;

import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public final class CdsTrain {
    private CdsTrain() {}

    /**
     * One argument: a UTF-8 file of requests in {@link Bridge#call}'s flat form, one field per line,
     * each request ended by an empty line. Prints the first line of each answer to stderr and exits
     * with 0 (the JVM writes the archive on its way out), or 2 when the file cannot be read.
     */
    public static void main(String[] argv) {
        PrintStream log = System.err;
        // What the test prints is not this program's output.
        System.setOut(System.err);
        List<String[]> requests = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(
                new InputStreamReader(new FileInputStream(argv[0]), StandardCharsets.UTF_8))) {
            List<String> fields = new ArrayList<>();
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                if (line.isEmpty()) {
                    if (!fields.isEmpty()) requests.add(fields.toArray(new String[0]));
                    fields.clear();
                } else {
                    fields.add(line);
                }
            }
            if (!fields.isEmpty()) requests.add(fields.toArray(new String[0]));
        } catch (Throwable t) {
            log.println("cds-train: cannot read the requests: " + Util.describe(t));
            System.exit(Protocol.CdsTrain.EXIT_UNREADABLE);
        }
        for (String[] r : requests) {
            String[] answer = Bridge.call(r);
            log.println("cds-train: " + r[0] + ": " + (answer.length == 0 ? "" : Util.clean(answer[0])));
        }
        // exit, not a return: a thread the test left running must not keep the JVM (and the dump) waiting.
        System.exit(0);
    }
}
