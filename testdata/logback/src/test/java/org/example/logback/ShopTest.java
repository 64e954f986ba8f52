package org.example.logback;

import static org.junit.Assert.assertEquals;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import org.junit.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class ShopTest {
    /** The method Logback names as each event's caller (its location information, `%M`). */
    static final List<String> callers = new ArrayList<>();

    static class Recorder extends AppenderBase<ILoggingEvent> {
        @Override
        protected void append(ILoggingEvent event) {
            callers.add(event.getCallerData()[0].getMethodName());
        }
    }

    @Test
    public void totalAddsTenPercentAndLogsFromTotal() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Recorder recorder = new Recorder();
        recorder.setContext(context);
        recorder.start();
        context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(recorder);
        assertEquals(110, Shop.total(100));
        for (String caller : callers) {
            assertEquals("total", caller);
        }
    }
}
