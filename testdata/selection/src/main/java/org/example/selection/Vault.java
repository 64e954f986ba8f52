package org.example.selection;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Entries sealed with a checksum. Only the static nested Builder computes it, through a private
 * method of the outer class (a synthetic accessor when compiled for release 8).
 */
public final class Vault {
    private final List<String> entries;
    private final int checksum;

    private Vault(List<String> entries, int checksum) {
        this.entries = entries;
        this.checksum = checksum;
    }

    public List<String> entries() {
        return Collections.unmodifiableList(entries);
    }

    public int checksum() {
        return checksum;
    }

    private static int digest(List<String> entries) {
        int h = 7;
        for (String e : entries) {
            h = h * 31 + e.length();
        }
        return h;
    }

    public static final class Builder {
        private final List<String> entries = new ArrayList<>();

        public Builder add(String entry) {
            entries.add(entry);
            return this;
        }

        public Vault build() {
            return new Vault(new ArrayList<>(entries), digest(entries));
        }
    }
}
