package org.example.grades;

/** Letter grades and percentages. */
public final class Grader {
    private Grader() {}

    /** Letter grade of a score in 0..100: A from 90, B from 80, C from 70, D from 60, else F. */
    public static char letter(int score) {
        if (score < 0 || score > 100) {
            throw new IllegalArgumentException("score out of range: " + score);
        }
        if (score >= 90) {
            return 'A';
        }
        if (score > 80) {
            return 'B';
        }
        if (score >= 70) {
            return 'C';
        }
        if (score >= 60) {
            return 'D';
        }
        return 'F';
    }

    /** Percentage of points, rounded down; 0 when max is 0. */
    public static int percent(int points, int max) {
        int pct = 0;
        if (max != 0) {
            pct = points * 100 / max;
        }
        return pct;
    }

    /** Whether a letter grade passes. */
    public static boolean passing(char letter) {
        return letter != 'F';
    }
}
