package org.example.soundness;

/** A configuration value that cannot be used, with the failure that revealed it as cause. */
public class ConfigError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ConfigError(String message, Throwable cause) {
        super(message, cause);
    }
}
