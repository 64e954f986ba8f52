package org.example.selection;

/**
 * Account tiers. Each constant's limit is computed once, by the constructor, while the enum is
 * initialised: in a class loader kept across tests only the first test that touches Tier runs
 * limitFor, and every later test reads the limits it computed.
 */
public enum Tier {
    BRONZE(1),
    SILVER(2),
    GOLD(3);

    private final int limit;

    Tier(int rank) {
        this.limit = limitFor(rank);
    }

    static int limitFor(int rank) {
        int base = 100;
        return base * rank * rank;
    }

    public int limit() {
        return limit;
    }

    /** The cheapest tier whose limit covers the amount, or null. */
    public static Tier forAmount(int amount) {
        for (Tier t : values()) {
            if (t.limit >= amount) {
                return t;
            }
        }
        return null;
    }
}
