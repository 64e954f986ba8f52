package org.example.selection;

/** Amounts in cents as text, through three overloads of format. */
public final class Money {
    private Money() {
    }

    /** "12.34" for 1234 cents, "-0.05" for -5. */
    public static String format(int cents) {
        String sign = cents < 0 ? "-" : "";
        int abs = Math.abs(cents);
        return sign + abs / 100 + "." + pad(abs % 100);
    }

    /** Cents given as decimal text, such as " 1205 "; delegates to format(int). */
    public static String format(String cents) {
        return format(Integer.parseInt(cents.trim()));
    }

    /** Large amounts: the other overload, with code of its own. */
    public static String format(long cents) {
        String sign = cents < 0 ? "-" : "";
        long abs = Math.abs(cents);
        long rest = abs % 100;
        return sign + abs / 100 + "." + (rest < 10 ? "0" : "") + rest;
    }

    private static String pad(int c) {
        return c < 10 ? "0" + c : String.valueOf(c);
    }
}
