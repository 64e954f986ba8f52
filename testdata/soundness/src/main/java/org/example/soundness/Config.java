package org.example.soundness;

/** Reads configuration values; a malformed one is a ConfigError caused by the parse failure. */
public class Config {

    public static int port(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new ConfigError("bad port", e);
        }
    }
}
