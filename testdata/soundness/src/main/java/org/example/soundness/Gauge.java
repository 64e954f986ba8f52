package org.example.soundness;

/** A level set through a parameter that shadows the instance field. */
public class Gauge {

    private int level;

    public void setLevel(int level) {
        this.level = level;
    }

    public int level() {
        return level;
    }
}
