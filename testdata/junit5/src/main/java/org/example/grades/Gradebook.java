package org.example.grades;

/** Scores of one student: count, total and best score. */
public class Gradebook {
    private int count;
    private int total;
    private int best = -1;

    public void add(int score) {
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("score out of range: " + score);
        }
        count++;
        total += score;
        if (score > best) {
            best = score;
        }
    }

    public int count() {
        return count;
    }

    /** Average score rounded down; 0 when empty. */
    public int average() {
        if (count == 0) {
            return 0;
        }
        return total / count;
    }

    /** Best score; -1 when empty. */
    public int best() {
        return best;
    }
}
