package org.example.grades;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.stream.Stream;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class GraderTest {
    @Test
    void topScoreIsA() {
        assertEquals('A', Grader.letter(100));
    }

    @Test
    void zeroIsF() {
        assertEquals('F', Grader.letter(0));
    }

    @ParameterizedTest
    @CsvSource({"95, A", "90, A", "85, B", "79, C", "70, C", "65, D", "59, F", "0, F"})
    void letters(int score, char expected) {
        assertEquals(expected, Grader.letter(score));
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 101, 1000})
    void outOfRangeThrows(int score) {
        IllegalArgumentException e =
            assertThrows(IllegalArgumentException.class, () -> Grader.letter(score));
        assertTrue(e.getMessage().contains(String.valueOf(score)));
    }

    @ParameterizedTest
    @CsvSource({"50, 100, 50", "1, 3, 33", "0, 0, 0", "7, 7, 100", "2, 3, 66"})
    void percent(int points, int max, int expected) {
        assertEquals(expected, Grader.percent(points, max));
    }

    @RepeatedTest(3)
    void passingIsStable(RepetitionInfo info) {
        assertTrue(Grader.passing(Grader.letter(59 + info.getCurrentRepetition())));
    }

    @TestFactory
    Stream<DynamicTest> passingLetters() {
        return Stream.of('A', 'B', 'C', 'D')
            .map(c -> DynamicTest.dynamicTest("passes " + c, () -> assertTrue(Grader.passing(c))));
    }

    @Test
    void onlyFFails() {
        assertFalse(Grader.passing('F'));
    }

    @Test
    @Disabled("never run: checks that @Disabled tests are not listed")
    void disabledNeverRuns() {
        fail("a @Disabled test ran");
    }

    @Nested
    class Boundaries {
        // The trigger test: 80 is a B (the seeded bug makes it a C).
        @ParameterizedTest
        @CsvSource({"90, A", "80, B", "70, C", "60, D"})
        void lowerBoundOfEachGrade(int score, String expected) {
            assertEquals(expected, String.valueOf(Grader.letter(score)));
        }

        @Test
        void justBelowEachBound() {
            assertEquals('B', Grader.letter(89));
            assertEquals('C', Grader.letter(79));
            assertEquals('D', Grader.letter(69));
            assertEquals('F', Grader.letter(59));
        }

        @Nested
        class Extremes {
            @ParameterizedTest
            @ValueSource(ints = {0, 100})
            void extremesAreValid(int score) {
                assertDoesNotThrow(() -> Grader.letter(score));
            }
        }
    }
}
