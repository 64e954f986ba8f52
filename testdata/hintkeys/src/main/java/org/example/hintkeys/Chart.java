package org.example.hintkeys;

import java.awt.RenderingHints;

/** A chart with a rendering hint of its own, whose key is made as JFreeChart makes its shadow key. */
public class Chart {
    /** Whether the chart draws a shadow; the value must be a Boolean. */
    public static final RenderingHints.Key KEY_SHADOW = new RenderingHints.Key(0) {
        @Override
        public boolean isCompatibleValue(Object val) {
            return val instanceof Boolean;
        }
    };

    private final RenderingHints hints = new RenderingHints(null);
    private final int width;

    public Chart(int width) {
        this.width = width;
        hints.put(KEY_SHADOW, Boolean.TRUE);
    }

    public boolean shadow() {
        return Boolean.TRUE.equals(hints.get(KEY_SHADOW));
    }

    public void setShadow(boolean on) {
        hints.put(KEY_SHADOW, on);
    }

    /** The width of each of n bars with a gap of one between them. */
    public int barWidth(int n) {
        return (width - (n - 1)) / n;
    }
}
