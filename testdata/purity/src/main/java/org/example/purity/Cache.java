package org.example.purity;

import java.util.LinkedHashMap;
import java.util.Map;

/** An access-ordered map: reading an entry with `get` moves it to the end. */
public class Cache {

    private final Map<String, Integer> entries = new LinkedHashMap<>(16, 0.75f, true);

    public void put(String key, int value) {
        entries.put(key, value);
    }

    public String eldest() {
        return entries.keySet().iterator().next();
    }

    public int present(String key) {
        int found = 0;
        found = 1;
        return found;
    }
}
