package org.example.selection;

import java.util.ArrayList;
import java.util.List;

/** A ledger whose opening lines an instance initialiser block writes, for every constructor. */
public class Ledger {
    private final List<String> lines = new ArrayList<>();
    private int opening;

    {
        for (int i = 0; i < 3; i++) {
            lines.add("open " + i);
        }
        opening = lines.size() * 100;
    }

    private final int limit;

    public Ledger(int limit) {
        this.limit = limit;
    }

    public Ledger() {
        this(1000);
    }

    public List<String> lines() {
        return lines;
    }

    public int opening() {
        return opening;
    }

    public int limit() {
        return limit;
    }
}
