package org.example.calc;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class MathUtilTest {

    @Test
    public void sumRangeOneToTen() {
        assertEquals(55, MathUtil.sumRange(1, 10));
    }

    @Test
    public void sumRangeSingleValue() {
        assertEquals(5, MathUtil.sumRange(5, 5));
    }

    @Test
    public void sumRangeEmptyWhenReversed() {
        assertEquals(0, MathUtil.sumRange(5, 3));
    }

    @Test
    public void sumRangeAcrossZero() {
        assertEquals(-5, MathUtil.sumRange(-3, 1));
    }

    @Test
    public void binarySearchFindsFirst() {
        assertEquals(0, MathUtil.binarySearch(new int[] {1, 3, 5, 7, 9}, 1));
    }

    @Test
    public void binarySearchFindsMiddle() {
        assertEquals(2, MathUtil.binarySearch(new int[] {1, 3, 5, 7, 9}, 5));
    }

    @Test
    public void binarySearchFindsLast() {
        assertEquals(4, MathUtil.binarySearch(new int[] {1, 3, 5, 7, 9}, 9));
    }

    @Test
    public void binarySearchSingleElement() {
        assertEquals(0, MathUtil.binarySearch(new int[] {42}, 42));
    }

    @Test
    public void binarySearchMissingMiddle() {
        // insertion point 2 -> -(2) - 1
        assertEquals(-3, MathUtil.binarySearch(new int[] {1, 3, 5, 7}, 4));
    }

    @Test
    public void binarySearchMissingBeforeStart() {
        // insertion point 0 -> -1
        assertEquals(-1, MathUtil.binarySearch(new int[] {1, 3, 5}, 0));
    }

    @Test
    public void rowsWithoutZeroBasic() {
        int[][] m = {{1, 2}, {0, 3}, {4, 5}};
        assertEquals(2, MathUtil.countRowsWithoutZero(m));
    }

    @Test
    public void rowsWithoutZeroZeroAtRowEnd() {
        int[][] m = {{1, 0}, {2, 3}, {4, 0}};
        assertEquals(1, MathUtil.countRowsWithoutZero(m));
    }

    @Test
    public void rowsWithoutZeroAllZero() {
        int[][] m = {{0}, {0, 0}};
        assertEquals(0, MathUtil.countRowsWithoutZero(m));
    }

    @Test
    public void rowsWithoutZeroEmptyRowCounts() {
        int[][] m = {{}, {7}, {0, 1, 2}};
        assertEquals(2, MathUtil.countRowsWithoutZero(m));
    }

    @Test
    public void factorialOfZero() throws CalcException {
        assertEquals(1L, MathUtil.factorial(0));
    }

    @Test
    public void factorialOfFive() throws CalcException {
        assertEquals(120L, MathUtil.factorial(5));
    }

    @Test
    public void factorialOfTwenty() throws CalcException {
        assertEquals(2432902008176640000L, MathUtil.factorial(20));
    }

    @Test(expected = CalcException.class)
    public void factorialOfNegativeThrows() throws CalcException {
        MathUtil.factorial(-1);
    }

    @Test(expected = CalcException.class)
    public void factorialOverflowThrows() throws CalcException {
        MathUtil.factorial(21);
    }
}
