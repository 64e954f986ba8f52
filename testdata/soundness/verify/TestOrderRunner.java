// Runs JUnit 4 test methods the way plain validation does, for make_patchsets.py: in the order
// given, each in a fresh class loader over the project's classes (so static state is fresh),
// each bounded by its own timeout. Not part of the fixture's project (outside src/).
//
// Usage: java -cp <this dir>:junit4.jar:hamcrest-core.jar TestOrderRunner MODE CLASSPATH
//            Class#method TIMEOUT_MS [Class#method TIMEOUT_MS ...]
// MODE "all" runs every test; "stop" stops after the first failure. Prints one line per test:
// "PASS <test> <ms>", "FAIL <test> <ms> <first line of the failure>", or "TIMEOUT <test> <ms>"
// (after which the process halts, as a killed JVM would).
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;

public class TestOrderRunner {

    public static void main(String[] args) throws Exception {
        boolean stop = args[0].equals("stop");
        List<URL> urls = new ArrayList<URL>();
        for (String p : args[1].split(File.pathSeparator)) {
            urls.add(new File(p).toURI().toURL());
        }
        for (int i = 2; i + 1 < args.length; i += 2) {
            final String test = args[i];
            long timeoutMs = Long.parseLong(args[i + 1]);
            final String cls = test.substring(0, test.indexOf('#'));
            final String method = test.substring(test.indexOf('#') + 1);
            final URLClassLoader loader =
                    new URLClassLoader(urls.toArray(new URL[0]), TestOrderRunner.class.getClassLoader());
            final Result[] result = new Result[1];
            final Throwable[] error = new Throwable[1];
            Thread t = new Thread(new Runnable() {
                public void run() {
                    try {
                        Class<?> c = Class.forName(cls, false, loader);
                        result[0] = new JUnitCore().run(Request.method(c, method));
                    } catch (Throwable e) {
                        error[0] = e;
                    }
                }
            }, "test");
            t.setDaemon(true);
            t.setContextClassLoader(loader);
            long start = System.nanoTime();
            t.start();
            t.join(timeoutMs);
            long ms = (System.nanoTime() - start) / 1000000;
            if (t.isAlive()) {
                System.out.println("TIMEOUT " + test + " " + ms);
                System.out.flush();
                Runtime.getRuntime().halt(0);
            }
            String why = null;
            if (error[0] != null) {
                why = String.valueOf(error[0]);
            } else if (result[0].getRunCount() != 1) {
                why = "ran " + result[0].getRunCount() + " tests";
            } else if (!result[0].wasSuccessful()) {
                why = String.valueOf(result[0].getFailures().get(0).getException());
            }
            if (why == null) {
                System.out.println("PASS " + test + " " + ms);
            } else {
                System.out.println("FAIL " + test + " " + ms + " " + why.split("\n")[0]);
                if (stop) {
                    break;
                }
            }
        }
        System.out.flush();
    }
}
