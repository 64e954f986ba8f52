package org.example.stats;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Reads sample values from a data file on the class path (next to the tests, as in Defects4J's old Math layout). */
final class Samples {

    private Samples() {
    }

    static double[] read(String name) throws IOException {
        InputStream in = Samples.class.getResourceAsStream(name);
        if (in == null) {
            throw new IOException("resource not on the class path: " + name);
        }
        List<Double> values = new ArrayList<Double>();
        BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        try {
            String line;
            while ((line = r.readLine()) != null) {
                line = line.trim();
                if (!line.isEmpty() && !line.startsWith("#")) {
                    values.add(Double.parseDouble(line));
                }
            }
        } finally {
            r.close();
        }
        double[] out = new double[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = values.get(i);
        }
        return out;
    }
}
