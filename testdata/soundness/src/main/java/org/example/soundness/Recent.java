package org.example.soundness;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Word lengths in an access-ordered map: a lookup makes the word the most recently used. */
public class Recent {

    private final Map<String, Integer> lengths = new LinkedHashMap<String, Integer>(16, 0.75f, true);

    public void remember(String word) {
        lengths.put(word, word.length());
    }

    public Integer lookup(String word) {
        Integer v;
        v = lengths.get(word);
        return v;
    }

    /** Least recently used first. */
    public List<String> order() {
        return new ArrayList<String>(lengths.keySet());
    }
}
