package org.example.grades;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Tests inherited by every concrete score test class. */
abstract class ScoreContract {
    abstract int score();

    @Test
    void scoreInRange() {
        int s = score();
        assertTrue(s >= 0 && s <= 100);
    }

    @Test
    void letterIsDefined() {
        assertDoesNotThrow(() -> Grader.letter(score()));
    }
}
