package org.example.statics;

import java.util.HashMap;
import java.util.Map;

/** Static final fields: a constant and a mutable table, looked at through reflection by the tests. */
public class Config {
    public static final String NAME = "config";
    public static final Map<String, String> TABLE = new HashMap<>();
    private static String secret = reveal();

    static {
        TABLE.put("a", "1");
    }

    private static String reveal() {
        Trace.event("Config");
        return "s3";
    }

    public static String secret() {
        return secret;
    }
}
