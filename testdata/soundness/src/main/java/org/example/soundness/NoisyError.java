package org.example.soundness;

/** An exception whose getMessage() counts how often it is read. */
public class NoisyError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public static int reads;

    public NoisyError(String what) {
        super(what);
    }

    @Override
    public String getMessage() {
        reads++;
        return "noisy: " + super.getMessage();
    }
}
