package org.example.stackjdk;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class ReceiptTest {

    @Test
    public void totalAddsTenPercent() {
        assertEquals(110, Receipt.total(100, "tag"));
        for (String where : new String[] {Receipt.taggedIn, Receipt.comparedIn, Receipt.notedIn,
            Receipt.iteratedIn, Receipt.loggedIn}) {
            if (where != null) {
                assertEquals("total", where);
            }
        }
        if (Audit.last != null) {
            assertEquals("total", innermostReceipt(Audit.last));
        }
    }

    /** The method of the innermost frame of {@link Receipt} (not a lambda) in a throwable's trace. */
    private static String innermostReceipt(Throwable t) {
        for (StackTraceElement frame : t.getStackTrace()) {
            if (frame.getClassName().equals(Receipt.class.getName())
                    && !frame.getMethodName().startsWith("lambda$")) {
                return frame.getMethodName();
            }
        }
        return "?";
    }
}
