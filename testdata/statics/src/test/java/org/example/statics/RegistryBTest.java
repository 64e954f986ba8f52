package org.example.statics;

import static org.junit.Assert.assertEquals;

import java.util.Collections;
import org.junit.Test;

/** Sees the registry empty although RegistryATest filled it: each test starts from fresh statics. */
public class RegistryBTest {
    @Test
    public void startsEmpty() {
        assertEquals(Collections.emptyList(), Registry.names());
        assertEquals(1, Registry.add("b"));
    }
}
