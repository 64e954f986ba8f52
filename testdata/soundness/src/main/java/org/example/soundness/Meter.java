package org.example.soundness;

/** Notes readings through a method with an effect, overloaded for int and long arguments. */
public class Meter {

    private final StringBuilder log = new StringBuilder();
    private long total;

    public void read(int raw, int scale) {
        int base = raw * 2;
        note(base + scale, "r");
    }

    private void note(int v, String tag) {
        log.append(tag).append(v).append(';');
        total += v;
    }

    private void note(long v, String tag) {
        log.append(tag).append('L').append(v).append(';');
        total += v;
    }

    public String log() {
        return log.toString();
    }

    public long total() {
        return total;
    }

    public void check(int v, int limit) {
        if (v > limit) {
            note(v, "over");
        }
    }
}
