package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class LedgerTest {

    /** Names the method that called {@code rate()}, as a logger inferring its caller does. */
    static class TracingLedger extends Ledger {
        @Override
        public int rate() {
            Ledger.rateCaller = new Throwable().getStackTrace()[1].getMethodName();
            return 10;
        }
    }

    @Test
    public void chargeAddsTenPercent() {
        assertEquals(110, new Ledger().charge(100));
        assertEquals(0, Ledger.fee);
        assertEquals(3, Ledger.Probe.scale() > 0 ? 3 : 0);
    }

    @Test
    public void anOverrideSeesTheChargingMethod() {
        assertEquals(220, new TracingLedger().charge(200));
        if (Ledger.rateCaller != null) {
            assertEquals("charge", Ledger.rateCaller);
        }
    }
}
