package org.example.text;

/** Checked exception thrown when a Tokenizer cannot produce a token. */
public class TokenizeException extends Exception {

    private static final long serialVersionUID = 1L;

    public TokenizeException(String message) {
        super(message);
    }
}
