package org.example.kept;

import java.util.HashMap;
import java.util.Map;

/** The codes by letter, filled by Code's initialiser. */
public class Names {
    private static final Map<String, Code> BY_LETTER = new HashMap<>();

    static void register(String letter, Code code) {
        BY_LETTER.put(letter, code);
    }

    public static Code byLetter(String letter) {
        Code.values(); // as Entities makes sure its EscapeMode tables are loaded
        return BY_LETTER.get(letter);
    }
}
