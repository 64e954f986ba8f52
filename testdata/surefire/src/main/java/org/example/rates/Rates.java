package org.example.rates;

import java.io.BufferedReader;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;

/** Prices in cents by name, read from "name = cents" lines. */
public final class Rates {

    /** Where the rates shipped with the library lie on the class path. */
    public static final String BUILT_IN = "org/example/rates/builtin.rates";

    private final Map<String, Integer> cents = new HashMap<>();

    public static Rates parse(Reader in) throws IOException {
        Rates rates = new Rates();
        BufferedReader lines = new BufferedReader(in);
        String line;
        while ((line = lines.readLine()) != null) {
            line = line.trim();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            rates.cents.put(line.substring(0, eq).trim(), Integer.parseInt(line.substring(eq + 1).trim()));
        }
        return rates;
    }

    /** The rates shipped with the library, found through the system class loader. */
    public static Rates builtIn() throws IOException {
        InputStream in = ClassLoader.getSystemResourceAsStream(BUILT_IN);
        if (in == null) {
            throw new FileNotFoundException(BUILT_IN + " is not on the class path");
        }
        try (Reader reader = new InputStreamReader(in, "UTF-8")) {
            return parse(reader);
        }
    }

    public int get(String name) {
        Integer c = cents.get(name);
        if (c == null) {
            throw new NoSuchElementException(name);
        }
        return c;
    }

    /** The sum of the named prices. */
    public int total(String... names) {
        int sum = 0;
        for (int i = 0; i < names.length; i++) {
            sum = get(names[i]);
        }
        return sum;
    }

    /** The total less every discount installed, as ServiceLoader finds them through the system class loader. */
    public int discounted(String... names) {
        int total = total(names);
        int off = 0;
        for (org.example.rates.spi.Discount d
                : java.util.ServiceLoader.load(org.example.rates.spi.Discount.class, ClassLoader.getSystemClassLoader())) {
            off += d.cents(total);
        }
        return total - off;
    }

    public int size() {
        return cents.size();
    }
}
