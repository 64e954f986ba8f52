package org.example.soundness;

/** Counts the words that parse as numbers; a word that does not parse adds its length as a penalty. */
public class Tally {

    public static int count(String[] words) {
        int n = 0;
        int penalty = 0;
        int last = -1; // kept for debugging: nothing reads it
        for (int k = 0; k < words.length; k++) {
            String w = words[k];
            try {
                Integer.parseInt(w);
                n++;
            } catch (NumberFormatException e) {
                penalty += w.length();
            }
        }
        return n * 100 + penalty;
    }
}
