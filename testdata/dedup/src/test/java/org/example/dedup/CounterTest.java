package org.example.dedup;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class CounterTest {

    @Test
    public void countPositiveMixed() {
        assertEquals(3, Counter.countPositive(new int[] {3, -2, 7, -9, 4}));
    }

    @Test
    public void countPositiveEmpty() {
        assertEquals(0, Counter.countPositive(new int[] {}));
    }

    @Test
    public void countPositiveAllNegative() {
        assertEquals(0, Counter.countPositive(new int[] {-1, -5, -100}));
    }

    @Test
    public void countPositiveOnes() {
        assertEquals(2, Counter.countPositive(new int[] {1, -1, 1}));
    }

    @Test
    public void countPositiveLarge() {
        assertEquals(3, Counter.countPositive(new int[] {100, 2, 50, -3}));
    }

    @Test
    public void countPositiveWithZero() {
        assertEquals(1, Counter.countPositive(new int[] {0, 5, 0, -1}));
    }

    @Test
    public void countPositiveOnlyZeros() {
        assertEquals(0, Counter.countPositive(new int[] {0, 0, 0}));
    }

    @Test
    public void doubledSumZero() {
        assertEquals(0, Counter.doubledSum(0));
    }

    @Test
    public void doubledSumOne() {
        assertEquals(2, Counter.doubledSum(1));
    }

    @Test
    public void doubledSumTwo() {
        assertEquals(6, Counter.doubledSum(2));
    }

    @Test
    public void doubledSumTen() {
        assertEquals(110, Counter.doubledSum(10));
    }

    @Test
    public void doubledSumNegative() {
        assertEquals(0, Counter.doubledSum(-4));
    }

    @Test
    public void countVisiblePlain() {
        assertEquals(3, Counter.countVisible(new String[] {"ab c"}));
    }

    @Test
    public void countVisibleCommentEndsLine() {
        assertEquals(4, Counter.countVisible(new String[] {"ab#cd", "ef"}));
    }

    @Test
    public void countVisibleCommentOnly() {
        assertEquals(0, Counter.countVisible(new String[] {"#x", "# y"}));
    }

    @Test
    public void countVisibleNoLines() {
        assertEquals(0, Counter.countVisible(new String[] {}));
    }

    @Test
    public void countVisibleEmptyLines() {
        assertEquals(1, Counter.countVisible(new String[] {"", "a", ""}));
    }

    @Test
    public void countVisibleTwoComments() {
        assertEquals(2, Counter.countVisible(new String[] {"a#b#c", " d # e"}));
    }
}
