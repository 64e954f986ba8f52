package org.example.text;

import static org.junit.Assert.assertArrayEquals;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertTrue;

import org.junit.Test;

public class TextUtilTest {

    @Test
    public void reverseWord() {
        assertEquals("olleh", TextUtil.reverse("hello"));
    }

    @Test
    public void reverseEmpty() {
        assertEquals("", TextUtil.reverse(""));
    }

    @Test
    public void reverseSingleChar() {
        assertEquals("x", TextUtil.reverse("x"));
    }

    @Test
    public void countSingleChar() {
        assertEquals(2, TextUtil.countOccurrences("hello world", "o"));
    }

    @Test
    public void countNoMatch() {
        assertEquals(0, TextUtil.countOccurrences("hello", "z"));
    }

    @Test
    public void countEmptyNeedle() {
        assertEquals(0, TextUtil.countOccurrences("hello", ""));
    }

    @Test
    public void countAdjacent() {
        assertEquals(2, TextUtil.countOccurrences("abab", "ab"));
    }

    @Test
    public void countNonOverlappingPair() {
        assertEquals(2, TextUtil.countOccurrences("aaaa", "aa"));
    }

    @Test
    public void countNonOverlappingTriple() {
        assertEquals(1, TextUtil.countOccurrences("aaaaa", "aaa"));
    }

    @Test
    public void palindromeSimple() {
        assertTrue(TextUtil.isPalindrome("racecar"));
    }

    @Test
    public void palindromeWithPunctuation() {
        assertTrue(TextUtil.isPalindrome("A man, a plan, a canal: Panama!"));
    }

    @Test
    public void notPalindrome() {
        assertFalse(TextUtil.isPalindrome("hello"));
    }

    @Test
    public void palindromeEmpty() {
        assertTrue(TextUtil.isPalindrome(""));
    }

    @Test
    public void findFirstPrefersEarlierRow() {
        char[][] grid = {{'a', 'b', 'c'}, {'d', 'x', 'f'}, {'x', 'h', 'i'}};
        assertArrayEquals(new int[] {1, 1}, TextUtil.findFirst(grid, 'x'));
    }

    @Test
    public void findFirstPrefersLeftmost() {
        char[][] grid = {{'a', 'b'}, {'c', 'y', 'y'}};
        assertArrayEquals(new int[] {1, 1}, TextUtil.findFirst(grid, 'y'));
    }

    @Test
    public void findFirstMissing() {
        char[][] grid = {{'a'}, {}, {'b', 'c'}};
        assertNull(TextUtil.findFirst(grid, 'z'));
    }

    @Test
    public void capitalizeWords() {
        assertEquals("Hello Big  World", TextUtil.capitalizeWords("hello big  world"));
    }
}
