package org.example.soundness;

/** A parse failure: the message is always the same, the position is in a field. */
public class ParseError extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public final int pos;

    public ParseError(int pos) {
        super("parse error");
        this.pos = pos;
    }
}
