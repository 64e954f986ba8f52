package org.example.log4j;

import static org.junit.Assert.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;
import org.junit.Test;

public class ShopTest {
    /** The method Log4j names as each event's source (its location information, `%M`). */
    static final List<String> callers = new ArrayList<>();

    @Test
    public void totalAddsTenPercentAndLogsFromTotal() {
        LoggerContext context = (LoggerContext) LogManager.getContext(false);
        Configuration config = context.getConfiguration();
        AbstractAppender recorder =
            new AbstractAppender("recorder", null, null, true, Property.EMPTY_ARRAY) {
                @Override
                public void append(LogEvent event) {
                    StackTraceElement source = event.getSource();
                    callers.add(source == null ? "?" : source.getMethodName());
                }
            };
        recorder.start();
        LoggerConfig root = config.getRootLogger();
        root.addAppender(recorder, Level.ALL, null);
        root.setLevel(Level.ALL);
        context.updateLoggers();
        assertEquals(110, Shop.total(100));
        for (String caller : callers) {
            assertEquals("total", caller);
        }
    }
}
