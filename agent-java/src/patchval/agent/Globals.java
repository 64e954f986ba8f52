// patchval agent: Globals owns the JVM-wide state that a class loader does not scope and the JDK lets
// us put back — system properties, the default Locale (and its DISPLAY and FORMAT categories), the
// default TimeZone — saved before every test run and restored after it, in every technique (baseline,
// plain, schemata), so that no test sees what an earlier one left there; and the rendering-hint
// keys an earlier test's classes registered (HintKeys).
package patchval.agent;

import java.util.ArrayList;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.TimeZone;

final class Globals {
    private final Locale locale;
    private final Locale display;
    private final Locale format;
    private final TimeZone zone;
    private final Properties object;
    private final Properties values;

    private Globals() {
        locale = Locale.getDefault();
        display = Locale.getDefault(Locale.Category.DISPLAY);
        format = Locale.getDefault(Locale.Category.FORMAT);
        // Before the properties: the first call settles user.timezone.
        zone = TimeZone.getDefault();
        object = System.getProperties();
        values = new Properties();
        for (Map.Entry<Object, Object> e : object.entrySet()) values.put(e.getKey(), e.getValue());
    }

    /** What a test run starts from. */
    static Globals save() {
        return new Globals();
    }

    /** Puts back what {@link #save} saw, touching only what differs. */
    void restore() {
        if (!locale.equals(Locale.getDefault())
            || !display.equals(Locale.getDefault(Locale.Category.DISPLAY))
            || !format.equals(Locale.getDefault(Locale.Category.FORMAT))) {
            Locale.setDefault(locale);
            Locale.setDefault(Locale.Category.DISPLAY, display);
            Locale.setDefault(Locale.Category.FORMAT, format);
        }
        TimeZone now = TimeZone.getDefault();
        if (!zone.getID().equals(now.getID()) || !zone.hasSameRules(now)) {
            TimeZone.setDefault(zone);
        }
        if (System.getProperties() != object) System.setProperties(object);
        for (Object key : new ArrayList<>(object.keySet())) {
            if (!values.containsKey(key)) {
                object.remove(key);
            }
        }
        for (Map.Entry<Object, Object> e : values.entrySet()) {
            if (!Objects.equals(object.get(e.getKey()), e.getValue())) {
                object.put(e.getKey(), e.getValue());
            }
        }
        HintKeys.forgetTestLoaders();
    }
}
