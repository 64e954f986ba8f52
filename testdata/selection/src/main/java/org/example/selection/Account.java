package org.example.selection;

/** Spending within the limit of a tier. */
public class Account {
    private final Tier tier;
    private int spent;

    public Account(Tier tier) {
        this.tier = tier;
    }

    public boolean spend(int amount) {
        if (spent + amount > tier.limit()) {
            return false;
        }
        spent += amount;
        return true;
    }

    public int remaining() {
        return tier.limit() - spent;
    }
}
