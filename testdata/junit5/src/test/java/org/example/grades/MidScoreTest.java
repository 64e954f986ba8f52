package org.example.grades;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MidScoreTest extends ScoreContract {
    @Override
    int score() {
        return 65;
    }

    @Test
    void midIsD() {
        assertEquals('D', Grader.letter(score()));
    }

    static Stream<Band> bands() {
        return Stream.of(new Band('A', true), new Band('D', true), new Band('F', false));
    }

    /** Its id names a parameter type from the test sources, which only the test loader sees. */
    @ParameterizedTest
    @MethodSource("bands")
    void bandPasses(Band band) {
        assertEquals(band.passes, Grader.passing(band.letter));
    }
}
