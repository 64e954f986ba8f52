package org.example.dedup;

/** A running balance with a count of operations and the text of the last amount added. */
public class Ledger {

    private int total;
    private int count;
    private String last = "";

    /** Adds v (which may be negative) to the balance. */
    public void add(int v) {
        count++;
        last = String.valueOf(v);
        total += v;
    }

    /**
     * Takes v from the balance. Fails, leaving the ledger unchanged, if v exceeds the balance.
     * Every successful withdrawal counts as an operation.
     */
    public void withdraw(int v) throws LedgerException {
        if (v > total) {
            throw new LedgerException("insufficient balance for " + v);
        }
        try {
            total -= v;
        } finally {
            count++;
        }
    }

    public int getTotal() {
        return total;
    }

    public int getCount() {
        return count;
    }

    public String getLast() {
        return last;
    }
}
