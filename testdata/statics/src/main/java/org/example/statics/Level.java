package org.example.statics;

/** An enum without mutable state: its constants stay the same objects for every lookup. */
public enum Level {
    LOW,
    HIGH;

    public Level other() {
        switch (this) {
            case LOW:
                return HIGH;
            default:
                return LOW;
        }
    }
}
