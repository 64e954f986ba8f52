package org.example.statics;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;
import static org.junit.Assert.fail;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import org.junit.Test;

/** What reflection shows of static final fields, and a private static read and written reflectively. */
public class ReflectionTest {
    @Test
    public void finalStaysFinal() throws Exception {
        Field f = Config.class.getField("TABLE");
        assertTrue(Modifier.isFinal(f.getModifiers()));
        assertEquals("public static final java.util.Map org.example.statics.Config.TABLE", f.toString());
        assertEquals("public static final java.util.Map<java.lang.String, java.lang.String> org.example.statics.Config.TABLE",
            f.toGenericString());
    }

    @Test
    public void finalCannotBeSet() throws Exception {
        Field f = Config.class.getField("TABLE");
        f.setAccessible(true);
        try {
            f.set(null, new java.util.HashMap<String, String>());
            fail("set a final field");
        } catch (IllegalAccessException e) {
            assertEquals("Can not set static final java.util.Map field org.example.statics.Config.TABLE to java.util.HashMap",
                e.getMessage());
        }
        try {
            f.setInt(null, 3);
            fail("set a final field");
        } catch (IllegalArgumentException e) {
            assertEquals("Can not set static final java.util.Map field org.example.statics.Config.TABLE to (int)3",
                e.getMessage());
        }
        assertEquals("1", Config.TABLE.get("a"));
    }

    @Test
    public void tableIsMutable() {
        Config.TABLE.put("b", "2");
        assertEquals(2, Config.TABLE.size());
    }

    @Test
    public void tableStartsWithOneEntry() {
        assertEquals(1, Config.TABLE.size());
    }

    @Test
    public void privateStaticAWrittenReflectively() throws Exception {
        Field f = Config.class.getDeclaredField("secret");
        f.setAccessible(true);
        assertEquals("s3", f.get(null));
        f.set(null, "changed");
        assertEquals("changed", Config.secret());
    }

    @Test
    public void privateStaticBReadReflectively() throws Exception {
        Field f = Config.class.getDeclaredField("secret");
        f.setAccessible(true);
        assertEquals("s3", f.get(null));
    }
}
