package org.example.soundness;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.function.IntBinaryOperator;
import org.junit.Test;

public class RelayTest {

    @Test
    public void labelsCountTheText() {
        assertEquals("n3:abc", Relay.labeller("n").apply("abc"));
        assertEquals("x2:42", Relay.<Integer>labeller("x").apply(42));
    }

    @Test
    public void recordsLongWords() {
        Relay r = new Relay();
        assertEquals(2, r.record(Arrays.asList("a", "bbb", "cc", "dddd"), 2));
        assertEquals(Arrays.asList("bbb", "dddd"), r.log());
        assertEquals(3, r.record(Arrays.asList("eee"), 2));
    }

    @Test
    public void findsFromAnIndex() {
        IntBinaryOperator f = Relay.finder(new int[] {4, 7, 4, 9});
        assertEquals(0, f.applyAsInt(4, 0));
        assertEquals(2, f.applyAsInt(4, 1));
        assertEquals(3, f.applyAsInt(9, 0));
        assertEquals(-1, f.applyAsInt(5, 0));
    }

    @Test
    public void halvesTowardZero() {
        assertEquals(3, Relay.HALF.applyAsInt(7));
        assertEquals(-3, Relay.HALF.applyAsInt(-7));
    }
}
