package org.example.text;

import junit.framework.TestCase;

/** JUnit 3 style tests (extends TestCase, methods named testXxx). */
public class TextUtilLegacyTest extends TestCase {

    public void testReversePalindromeIsSame() {
        assertEquals("level", TextUtil.reverse("level"));
    }

    public void testCapitalizeSingleWord() {
        assertEquals("Java", TextUtil.capitalizeWords("java"));
    }

    public void testPalindromeMixedCase() {
        assertTrue(TextUtil.isPalindrome("No lemon, no melon"));
    }

    public void testCountWholeString() {
        assertEquals(1, TextUtil.countOccurrences("abc", "abc"));
    }
}
