package org.example.kept;

/**
 * Tokens with their text as characters and bytes, as jackson-core's JsonToken keeps them: final
 * arrays, which the warm loader's reset cannot put back, that nothing writes after the initialiser.
 */
public enum Token {
    START("{"),
    END("}"),
    TRUE("true"),
    NULL("null");

    private final String text;
    private final char[] chars;
    private final byte[] bytes;

    Token(String text) {
        this.text = text;
        this.chars = text.toCharArray();
        this.bytes = new byte[chars.length];
        for (int i = 0; i < chars.length; i++) {
            bytes[i] = (byte) chars[i];
        }
    }

    public String text() {
        return text;
    }

    /** The characters themselves, not a copy (as JsonToken.asCharArray). */
    public char[] asChars() {
        return chars;
    }

    public int width() {
        return bytes.length;
    }
}
