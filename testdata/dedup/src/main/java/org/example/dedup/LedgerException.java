package org.example.dedup;

/** Checked exception for a ledger operation that cannot be carried out. */
public class LedgerException extends Exception {

    private static final long serialVersionUID = 1L;

    public LedgerException(String message) {
        super(message);
    }
}
