package org.example.grades;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

public class GradebookTest {
    private Gradebook book;
    private int added;

    @BeforeEach
    void setUp() {
        book = new Gradebook();
        added = 0;
    }

    @AfterEach
    void countMatchesAdds() {
        assertEquals(added, book.count(), "count after the test");
        book = null;
    }

    private void add(int score) {
        book.add(score);
        added++;
    }

    @Test
    public void emptyBook() {
        assertEquals(0, book.average());
        assertEquals(-1, book.best());
    }

    @Test
    void singleScore() {
        add(64);
        assertEquals(64, book.average());
        assertEquals(64, book.best());
    }

    @Test
    void averageRoundsDown() {
        add(70);
        add(75);
        assertEquals(72, book.average());
    }

    @Test
    void bestKeepsMaximum() {
        add(60);
        add(95);
        add(70);
        assertEquals(95, book.best());
    }

    @Test
    void rejectsOutOfRange() {
        assertThrows(IllegalArgumentException.class, () -> book.add(101));
        assertThrows(IllegalArgumentException.class, () -> book.add(-5));
    }

    @Nested
    class WithThreeScores {
        @BeforeEach
        void fill() {
            add(70);
            add(85);
            add(91);
        }

        @Test
        void average() {
            assertEquals(82, book.average());
        }

        @Test
        void best() {
            assertEquals(91, book.best());
        }

        @ParameterizedTest
        @ValueSource(ints = {0, 100})
        void oneMore(int score) {
            add(score);
            assertEquals(4, book.count());
        }
    }
}
