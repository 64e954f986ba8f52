package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class AuditTest {

    @Test
    public void chargeAddsTenPercent() {
        assertEquals(110, Audit.charge(100));
        if (Audit.lastMark != null) {
            assertEquals("charge", Audit.lastMark.getStackTrace()[0].getMethodName());
        }
        if (Audit.closedIn != null) {
            assertEquals("charge", Audit.closedIn);
        }
    }

    @Test
    public void callerNamesTheCallingMethod() {
        assertEquals("callerNamesTheCallingMethod", Audit.caller());
    }
}
