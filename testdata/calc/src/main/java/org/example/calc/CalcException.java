package org.example.calc;

/** Checked exception signalling an argument outside a function's domain. */
public class CalcException extends Exception {

    private static final long serialVersionUID = 1L;

    public CalcException(String message) {
        super(message);
    }
}
