package org.example.soundness;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

public class DepthTest {

    /** Depth.reach(n) on a thread whose stack size the test sets, the same under any runner. */
    static int onSmallStack(int n) throws InterruptedException {
        int[] out = {-2};
        Thread t = new Thread(null, () -> out[0] = Depth.reach(n), "depth", 256 * 1024);
        t.start();
        t.join();
        return out[0];
    }

    @Test
    public void walksAThousand() throws Exception {
        assertEquals(1000, onSmallStack(1000));
    }

    @Test
    public void tooDeepIsBroken() throws Exception {
        assertEquals(-1, onSmallStack(10_000_000));
    }
}
