package org.example.grades;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class MidScoreTest extends ScoreContract {
    @Override
    int score() {
        return 65;
    }

    @Test
    void midIsD() {
        assertEquals('D', Grader.letter(score()));
    }
}
