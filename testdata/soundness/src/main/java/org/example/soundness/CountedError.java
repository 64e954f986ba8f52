package org.example.soundness;

/** An exception that counts its instances in a static field. */
public class CountedError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public static int created;

    public CountedError(String message) {
        super(message);
        created++;
    }
}
