package org.example.soundness;

/** An exception that counts its instances in a static field, unless told not to. */
public class CountedError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public static int created;

    public CountedError(String message) {
        this(message, true);
    }

    public CountedError(String message, boolean counted) {
        super(message);
        if (counted) {
            created++;
        }
    }
}
